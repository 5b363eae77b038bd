import { recordActivity } from '../../activity/activity.service.js';
import { recordAuthEvent } from '../../logs/log-events.js';
import type { AuthDeps, ClientInfo } from '../auth-deps.js';
import { userBanned } from '../protocol/gotrue-errors.js';
import { isBanned, type SignInMethod } from '../sessions/sessions.service.js';
import { syncEmailIdentity } from '../signup/identities.service.js';
import { usernameOf } from '../users/accounts.service.js';
import type { IssuedSession } from '../users/gotrue-user.js';
import { type PasswordWeakness, passwordWeakness, verifyPassword } from '../users/passwords.js';
import type { UserRow } from '../users/user-pool.js';
import type { VerificationService } from '../verification/verification.service.js';

const MAX_PASSWORD_INPUT = 1024;

/** SignInRefused says why a password sign-in failed; each API family words it its own way. */
export class SignInRefused extends Error {
  constructor(readonly reason: 'invalid_credentials' | 'email_not_confirmed' | 'user_banned') {
    super(reason);
  }
}

/** SignedIn is a new session with the user it belongs to. */
export interface SignedIn<R extends UserRow> {
  account: R;
  session: IssuedSession;
  /** The console cookie's value when asked for. */
  cookieToken: string | null;
}

/**
 * startSignedInSession starts a session for a user who has proven who they are, records LOGIN (console accounts;
 * an app's end users sign in too often for the owner's feed), logs the sign-in and signs the access token.
 */
export async function startSignedInSession<R extends UserRow>(
  deps: AuthDeps<R>,
  account: R,
  options: { method: SignInMethod; client: ClientInfo; withCookie?: boolean },
): Promise<SignedIn<R>> {
  const started = await deps.ctx.db.transaction(async ({ kysely: trx }) => {
    const session = await deps.sessions.start(trx, account, {
      method: options.method,
      withCookie: options.withCookie,
      ...options.client,
    });
    if (!deps.pool.app) {
      await recordActivity(
        trx,
        { accountId: account.id, action: 'LOGIN', resource: 'auth', details: { username: usernameOf(account) } },
        deps.now(),
      );
    }
    return session;
  });
  recordAuthEvent(deps.ctx.logs, {
    kind: 'signed_in',
    accountId: deps.pool.activityAccountOf(account),
    method: options.method,
    ip: options.client.ip,
    ...(deps.pool.app ? { endUserId: account.id } : {}),
  });
  return { account, session: await deps.sessions.issue(account, started), cookieToken: started.cookieToken };
}

/**
 * signInWithPassword checks an email and password and starts a session. The same SignInRefused reason
 * covers an unknown email and a wrong password; `weakness` is set when the password no longer meets the policy.
 * Every refusal is logged. Wrong passwords are rate-limited per email and IP, and per IP (a 429).
 */
export async function signInWithPassword<R extends UserRow>(
  deps: AuthDeps<R>,
  input: { email: string; password: string; client: ClientInfo; withCookie?: boolean },
): Promise<SignedIn<R> & { weakness: PasswordWeakness | null }> {
  const refuse = (reason: SignInRefused['reason']) => {
    recordAuthEvent(deps.ctx.logs, { kind: 'sign_in_refused', email: input.email, reason, ip: input.client.ip });
    return new SignInRefused(reason);
  };
  // Counted as a failure until the password proves right (auth-rate-limits.ts); past the limit, a 429.
  const attempt = await deps.limits.signIn({ ip: input.client.ip });
  // No stored password is longer than the policy allows; do not spend argon2 time on megabyte inputs.
  if (input.password.length > MAX_PASSWORD_INPUT) throw refuse('invalid_credentials');
  const account = await deps.pool.users.findByEmail(deps.ctx.db.kysely, input.email);
  const matches = await verifyPassword(account?.password_hash ?? null, input.password);
  if (!account || !matches) throw refuse('invalid_credentials');
  await attempt.passwordMatched();
  if (!account.email_confirmed_at) throw refuse('email_not_confirmed');
  if (isBanned(account, deps.now())) throw refuse('user_banned');
  const signedIn = await startSignedInSession(deps, account, {
    method: 'password',
    client: input.client,
    withCookie: input.withCookie,
  });
  return { ...signedIn, weakness: passwordWeakness(input.password, deps.pool.settings.passwordPolicy) };
}

/** Proof is what redeems a one-time token: the token hash of a mail link, or the address or phone with its code. */
export type Proof = Parameters<VerificationService['redeem']>[1];

/** redeemProof redeems a proof (refused for a banned user); the email identity follows the confirmed or changed address. */
export async function redeemProof<R extends UserRow>(deps: AuthDeps<R>, type: string, proof: Proof) {
  const redeemed = await deps.verification.redeem(type, proof);
  if (isBanned(redeemed.account, deps.now())) throw userBanned(403);
  const account = await deps.ctx.db.transaction(({ kysely }) =>
    syncEmailIdentity(deps, kysely, redeemed.account, deps.now()),
  );
  return { ...redeemed, account };
}
