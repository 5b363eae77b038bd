import { randomUUID } from 'node:crypto';
import { recordAuthEvent } from '../../logs/log-events.js';
import type { AuthDeps, ClientInfo } from '../auth-deps.js';
import { isBanned } from '../sessions/sessions.service.js';
import { signupsOpen } from '../signup/signups-open.js';
import { registerUser } from '../signup/user-creation.service.js';
import { type Metadata, UniqueViolation } from '../users/accounts.service.js';
import type { UserRow } from '../users/user-pool.js';
import type { MailKind } from '../verification/verification.service.js';
import { type PkceParams, startFlow } from './pkce.service.js';

// Sign-in by mail (POST /otp, supabase-js signInWithOtp with an email): a link and a 6-digit code. A new address
// gets an account first when create_user allows it and sign-ups are open (confirmed at once with autoconfirm, as
// GoTrue does, else by this very mail). Unlike GoTrue, nothing in the answer tells whether the address has an
// account: an unknown address with create_user false, or with sign-ups closed, gets the same `{}` and no mail.

/** MagicLinkInput is a validated POST /otp with an email. */
export interface MagicLinkInput {
  email: string;
  data: Metadata;
  createUser: boolean;
  pkce: PkceParams | null;
  redirectTo: string | null;
  client: ClientInfo;
}

// A PKCE client gets a flow its link leads back to with `?code=`.
async function flowFor<R extends UserRow>(
  deps: AuthDeps<R>,
  kind: 'magiclink' | 'email/signup' | 'email_change' | 'recovery' | 'invite',
  pkce: PkceParams | null,
  redirectTo: string | null,
): Promise<string | null> {
  if (!pkce) return null;
  return startFlow(deps, { kind, pkce, redirectTo: deps.verification.redirectTarget(redirectTo) });
}

/** mailSignIn sends the mail of a magic link, or of the confirmation a not yet confirmed account still needs. */
async function mailSignIn<R extends UserRow>(deps: AuthDeps<R>, user: R, input: MagicLinkInput): Promise<void> {
  const kind: MailKind = user.email_confirmed_at ? 'magiclink' : 'signup';
  const flowStateId = await flowFor(
    deps,
    kind === 'magiclink' ? 'magiclink' : 'email/signup',
    input.pkce,
    input.redirectTo,
  );
  await deps.verification.send(user, kind, { redirectTo: input.redirectTo, flowStateId });
}

/** sendMagicLink is POST /otp with an email. */
export async function sendMagicLink<R extends UserRow>(deps: AuthDeps<R>, input: MagicLinkInput): Promise<void> {
  const { db } = deps.ctx;
  const existing = await deps.pool.users.findByEmail(db.kysely, input.email);
  if (existing) {
    if (!isBanned(existing, deps.now())) await mailSignIn(deps, existing, input);
    else await deps.limits.unsentMail(input.email, 'recovery');
    return;
  }
  // No mail, and the limit a confirmed account's magic link would have: the answer tells nothing.
  if (!input.createUser || !(await signupsOpen(deps))) {
    await deps.limits.unsentMail(input.email, 'recovery');
    return;
  }

  const id = randomUUID();
  const userMetadata = {
    ...input.data,
    email: input.email,
    email_verified: deps.autoconfirm,
    phone_verified: false,
    sub: id,
  };
  let created: R;
  try {
    created = await db.transaction(async (scope) => {
      const now = deps.now();
      const user = await registerUser(
        deps,
        scope,
        { id, email: input.email, passwordHash: null, userMetadata, confirmed: deps.autoconfirm },
        now,
      );
      return user;
    });
  } catch (error) {
    // Another request made the account meanwhile: mail it as an existing one.
    if (!(error instanceof UniqueViolation)) throw error;
    const raced = await deps.pool.users.findByEmail(db.kysely, input.email);
    if (raced) await mailSignIn(deps, raced, input);
    return;
  }
  recordAuthEvent(deps.ctx.logs, {
    kind: 'signed_up',
    accountId: deps.pool.activityAccountOf(created),
    email: created.email,
    ip: input.client.ip,
    confirmed: deps.autoconfirm,
    ...(deps.pool.app ? { endUserId: created.id } : {}),
  });
  await mailSignIn(deps, created, input);
}

/** ResendInput is a validated POST /resend. */
export interface ResendInput {
  type: 'signup' | 'email_change';
  email: string;
  pkce: PkceParams | null;
  redirectTo: string | null;
}

/**
 * resendMail is POST /resend: the confirmation mail of an unconfirmed sign-up again, or of a pending email change
 * (to the new address). Anything else (no such account, already confirmed, no change pending) sends nothing and
 * answers the same.
 */
export async function resendMail<R extends UserRow>(deps: AuthDeps<R>, input: ResendInput): Promise<void> {
  const user = await deps.pool.users.findByEmail(deps.ctx.db.kysely, input.email);
  if (!user || isBanned(user, deps.now())) return;
  if (input.type === 'signup') {
    if (user.email_confirmed_at) return;
    const flowStateId = await flowFor(deps, 'email/signup', input.pkce, input.redirectTo);
    await deps.verification.send(user, user.invited_at ? 'invite' : 'signup', {
      redirectTo: input.redirectTo,
      flowStateId,
    });
    return;
  }
  if (!user.new_email) return;
  const flowStateId = await flowFor(deps, 'email_change', input.pkce, input.redirectTo);
  await deps.verification.send(user, 'email_change', {
    redirectTo: input.redirectTo,
    newEmail: user.new_email,
    flowStateId,
  });
}
