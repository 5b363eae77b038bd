import { recordActivity } from '../activity/activity.service.js';
import { recordAuthEvent } from '../logs/log-events.js';
import {
  type AccountRow,
  createAccount,
  findAccountWithEmail,
  type Metadata,
  normalizeEmail,
  UniqueViolation,
  usernameOf,
} from './accounts.service.js';
import type { AuthDeps, ClientInfo } from './auth-deps.js';
import type { IssuedSession } from './gotrue-user.js';
import { hashPassword } from './passwords.js';

/** SignUpInput is a validated sign-up (GoTrue /signup or the console's register). */
export interface SignUpInput {
  email: string;
  password: string;
  userMetadata: Metadata;
  redirectTo: string | null;
  client: ClientInfo;
  /** Also start a console cookie session (POST /api/auth/register). */
  withCookie?: boolean;
}

/** SignUpOutcome is what a sign-up led to. */
export type SignUpOutcome =
  /** Autoconfirm on: a confirmed account and a session. */
  | { kind: 'signed_in'; account: AccountRow; session: IssuedSession; cookieToken: string | null }
  /** Autoconfirm off: a new (or still unconfirmed) account and a confirmation mail. */
  | { kind: 'confirmation_sent'; account: AccountRow }
  /** Autoconfirm off and the email belongs to a confirmed account: nothing changed. */
  | { kind: 'exists_confirmed'; email: string };

/**
 * signUp registers an account with the email provider (protocol §2.6.1). It throws UniqueViolation when
 * the username is taken, and for the email when confirmation is off (autoconfirm on: anyone may register
 * any address, so a registered one is reported). REGISTER is recorded with the new account, and the sign-up logged.
 */
export async function signUp(deps: AuthDeps, input: SignUpInput): Promise<SignUpOutcome> {
  const { db } = deps.ctx;
  const email = normalizeEmail(input.email);
  const existing = await findAccountWithEmail(db.kysely, email);
  if (existing) {
    if (deps.autoconfirm) throw new UniqueViolation('email');
    if (existing.email_confirmed_at) return { kind: 'exists_confirmed', email };
    // Still unconfirmed: mail the confirmation again and change nothing else (recovery resets a password).
    await deps.verification.send(existing, 'signup', { redirectTo: input.redirectTo });
    return { kind: 'confirmation_sent', account: existing };
  }

  const passwordHash = await hashPassword(input.password);
  const { account, started } = await db.transaction(async (trx) => {
    const now = deps.now();
    const created = await createAccount(
      trx,
      { email, passwordHash, userMetadata: input.userMetadata, confirmed: deps.autoconfirm },
      now,
    );
    await recordActivity(
      trx,
      { accountId: created.id, action: 'REGISTER', resource: 'users', details: { username: usernameOf(created) } },
      now,
    );
    const session = deps.autoconfirm
      ? await deps.sessions.start(trx, created, { method: 'password', withCookie: input.withCookie, ...input.client })
      : null;
    return { account: created, started: session };
  });
  recordAuthEvent(deps.ctx.logs, {
    kind: 'signed_up',
    accountId: account.id,
    email: account.email,
    ip: input.client.ip,
    confirmed: deps.autoconfirm,
  });

  if (!started) {
    await deps.verification.send(account, 'signup', { redirectTo: input.redirectTo });
    return { kind: 'confirmation_sent', account };
  }
  const session = await deps.sessions.issue(account, started);
  return { kind: 'signed_in', account, session, cookieToken: started.cookieToken };
}
