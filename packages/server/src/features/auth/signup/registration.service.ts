import { recordAuthEvent } from '../../logs/log-events.js';
import type { AuthDeps, ClientInfo } from '../auth-deps.js';
import { type Metadata, normalizeEmail, UniqueViolation } from '../users/accounts.service.js';
import type { IssuedSession } from '../users/gotrue-user.js';
import { hashPassword } from '../users/passwords.js';
import type { UserRow } from '../users/user-pool.js';
import { registerEmailUser, registerUser } from './user-creation.service.js';

/** SignUpInput is a validated sign-up (GoTrue /signup or the console's register). */
export interface SignUpInput {
  email: string;
  password: string;
  userMetadata: Metadata;
  redirectTo: string | null;
  client: ClientInfo;
  /** Also start a console cookie session (POST /api/auth/register). */
  withCookie?: boolean;
  /** The PKCE flow the confirmation link leads back to (pkce.service.ts). */
  flowStateId?: string | null;
}

/** SignUpOutcome is what a sign-up led to. */
export type SignUpOutcome<R extends UserRow> =
  /** Autoconfirm on: a confirmed account and a session. */
  | { kind: 'signed_in'; account: R; session: IssuedSession; cookieToken: string | null }
  /** Autoconfirm off: a new (or still unconfirmed) account and a confirmation mail. */
  | { kind: 'confirmation_sent'; account: R }
  /** Autoconfirm off and the email belongs to a confirmed account: nothing changed. */
  | { kind: 'exists_confirmed'; email: string };

/**
 * signUp registers an account with the email provider. It throws UniqueViolation when
 * the username is taken, and for the email when confirmation is off (autoconfirm on: anyone may register
 * any address, so a registered one is reported). REGISTER is recorded with the new account, and the sign-up logged.
 */
export async function signUp<R extends UserRow>(deps: AuthDeps<R>, input: SignUpInput): Promise<SignUpOutcome<R>> {
  const { db } = deps.ctx;
  const email = normalizeEmail(input.email);
  const existing = await deps.pool.users.findByEmail(db.kysely, email);
  if (existing) {
    if (deps.autoconfirm) throw new UniqueViolation('email');
    if (existing.email_confirmed_at) return { kind: 'exists_confirmed', email };
    // Still unconfirmed: mail the confirmation again and change nothing else (recovery resets a password).
    await deps.verification.send(existing, 'signup', { redirectTo: input.redirectTo, flowStateId: input.flowStateId });
    return { kind: 'confirmation_sent', account: existing };
  }

  const passwordHash = await hashPassword(input.password);
  const { account, started } = await db.transaction(async (scope) => {
    const now = deps.now();
    const created = await registerEmailUser(
      deps,
      scope,
      { email, passwordHash, userMetadata: input.userMetadata, confirmed: deps.autoconfirm },
      now,
    );
    const session = deps.autoconfirm
      ? await deps.sessions.start(scope.kysely, created, {
          method: 'password',
          withCookie: input.withCookie,
          ...input.client,
        })
      : null;
    return { account: created, started: session };
  });
  recordAuthEvent(deps.ctx.logs, {
    kind: 'signed_up',
    accountId: deps.pool.activityAccountOf(account),
    email: account.email,
    ip: input.client.ip,
    confirmed: deps.autoconfirm,
    ...(deps.pool.app ? { endUserId: account.id } : {}),
  });

  if (!started) {
    await deps.verification.send(account, 'signup', { redirectTo: input.redirectTo, flowStateId: input.flowStateId });
    return { kind: 'confirmation_sent', account };
  }
  const session = await deps.sessions.issue(account, started);
  return { kind: 'signed_in', account, session, cookieToken: started.cookieToken };
}

/**
 * signUpAnonymously is POST /signup without an email or phone (supabase-js signInAnonymously): a user without an
 * address and a session with amr `anonymous`. The user becomes permanent by adding an address
 * (updateUser({email, password})); until then `is_anonymous` is true in the user and the token.
 */
export async function signUpAnonymously<R extends UserRow>(
  deps: AuthDeps<R>,
  input: { userMetadata: Metadata; client: ClientInfo },
): Promise<{ account: R; session: IssuedSession }> {
  const { db } = deps.ctx;
  const { account, started } = await db.transaction(async (scope) => {
    const now = deps.now();
    const created = await registerUser(
      deps,
      scope,
      { email: '', anonymous: true, passwordHash: null, userMetadata: input.userMetadata, confirmed: false },
      now,
    );
    const session = await deps.sessions.start(scope.kysely, created, { method: 'anonymous', ...input.client });
    return { account: created, started: session };
  });
  recordAuthEvent(deps.ctx.logs, {
    kind: 'signed_up',
    accountId: deps.pool.activityAccountOf(account),
    email: '',
    ip: input.client.ip,
    confirmed: false,
    ...(deps.pool.app ? { endUserId: account.id } : {}),
  });
  return { account, session: await deps.sessions.issue(account, started) };
}
