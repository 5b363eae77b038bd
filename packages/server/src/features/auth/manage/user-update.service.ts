import type { z } from 'zod';
import { ApiError } from '../../../http/errors.js';
import type { AuthDeps } from '../auth-deps.js';
import type { SignedInUser } from '../gateway/auth-guards.js';
import {
  clashError,
  emailExists,
  featureDisabled,
  notAdmin,
  samePassword,
  weakPassword,
} from '../protocol/gotrue-errors.js';
import { gotrueEmail, type updateUserBodySchema } from '../protocol/gotrue-input.js';
import { pkceParamsOf, startFlow } from '../signin/pkce.service.js';
import { syncEmailIdentity } from '../signup/identities.service.js';
import { checkMetadataUsername, mergeMetadata, parseMetadata } from '../users/accounts.service.js';
import { countVerifiedFactors } from '../users/mfa.store.js';
import { hashPassword, passwordWeakness, verifyPassword } from '../users/passwords.js';
import type { UserChanges, UserRow } from '../users/user-pool.js';

// GoTrue's grace: a session younger than a day changes its password without a reauthentication code.
const REAUTHENTICATION_GRACE_MS = 24 * 3600_000;

/** UpdateUserBody is a parsed PUT /user body. */
export type UpdateUserBody = z.output<typeof updateUserBodySchema>;

/**
 * updateUser applies PUT /user for the signed-in user: merges `data` into
 * user_metadata, changes the password (every other session ends, pending mail tokens are dropped) and the
 * email (at once with autoconfirm, else after confirming a mail to the new address).
 */
export async function updateUser<R extends UserRow>(
  deps: AuthDeps<R>,
  user: SignedInUser<R>,
  body: UpdateUserBody,
  redirectTo: string | null,
): Promise<R> {
  const { account } = user;
  if (body.app_metadata !== undefined && body.app_metadata !== null) throw notAdmin();
  if (body.phone) throw featureDisabled('phone_provider_disabled', 'Phone numbers are not supported');
  const changes: UserChanges = {};
  const session = await deps.sessions.find(user.sessionId);
  const newPassword = body.password !== undefined && body.password !== null && body.password !== '';
  const newEmail = body.email ? gotrueEmail(body.email) : null;
  const changesEmail = newEmail !== null && (account.is_anonymous === 1 || newEmail !== account.email);

  // With a verified factor, a password or address changes only in an aal2 session (GoTrue's rule).
  if ((newPassword || changesEmail) && session?.aal !== 'aal2') {
    if ((await countVerifiedFactors(deps.ctx.db.kysely, deps.pool.tables, account.id)) > 0) {
      throw new ApiError(
        401,
        'insufficient_aal',
        'AAL2 session is required to update email or password when MFA is enabled.',
      );
    }
  }
  if (account.is_anonymous === 1 && newPassword && !newEmail) {
    throw new ApiError(
      422,
      'validation_failed',
      'Updating password of an anonymous user without an email or phone is not allowed',
    );
  }
  // A password change of a session older than a day needs the code of GET /reauthenticate, when the pool says so.
  if (newPassword && deps.pool.settings.passwordReauthentication) {
    const age = session ? deps.now().getTime() - new Date(session.created_at).getTime() : Number.POSITIVE_INFINITY;
    if (age > REAUTHENTICATION_GRACE_MS) {
      if (!body.nonce) throw new ApiError(400, 'reauthentication_needed', 'Password update requires reauthentication');
      await deps.verification.checkNonce(account, body.nonce);
    }
  }

  if (body.data) {
    checkMetadataUsername(body.data);
    changes.userMetadata = mergeMetadata(parseMetadata(account.user_metadata), body.data);
  }
  if (newPassword && body.password) {
    const weakness = passwordWeakness(body.password, deps.pool.settings.passwordPolicy);
    if (weakness) throw weakPassword(weakness);
    if (await verifyPassword(account.password_hash, body.password)) throw samePassword();
    changes.password_hash = await hashPassword(body.password);
  }
  let pendingEmail: string | null = null;
  if (newEmail && changesEmail) {
    if (await deps.pool.users.findByEmail(deps.ctx.db.kysely, newEmail)) throw emailExists();
    if (deps.autoconfirm) {
      changes.email = newEmail;
      changes.email_confirmed_at = deps.now().toISOString();
      // An anonymous user with an address is a permanent user (GoTrue's).
      if (account.is_anonymous === 1) changes.is_anonymous = 0;
    } else pendingEmail = newEmail;
  }

  const updated = await deps.ctx.db
    .transaction(async (scope) => {
      let row = (await deps.pool.users.update(scope.kysely, account.id, changes, deps.now())) ?? account;
      if (changes.email) row = await syncEmailIdentity(deps, scope.kysely, row, deps.now());
      if (changes.password_hash) await deps.sessions.endAll(scope, account.id, user.sessionId);
      return row;
    })
    .catch((error: unknown) => {
      throw clashError(error);
    });
  if (changes.password_hash) await deps.verification.clear(account.id, ['recovery', 'signup']);
  if (pendingEmail) {
    const pkce = pkceParamsOf(body.code_challenge, body.code_challenge_method);
    const flowStateId = pkce
      ? await startFlow(deps, { kind: 'email_change', pkce, redirectTo: deps.verification.redirectTarget(redirectTo) })
      : null;
    await deps.verification.send(updated, 'email_change', { redirectTo, newEmail: pendingEmail, flowStateId });
  }
  return updated;
}
