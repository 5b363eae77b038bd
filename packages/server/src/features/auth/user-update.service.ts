import type { z } from 'zod';
import {
  type AccountChanges,
  type AccountRow,
  checkMetadataUsername,
  findAccountWithEmail,
  mergeMetadata,
  parseMetadata,
  updateAccount,
} from './accounts.service.js';
import type { AuthDeps } from './auth-deps.js';
import type { SignedInUser } from './auth-guards.js';
import { clashError, emailExists, featureDisabled, notAdmin, samePassword, weakPassword } from './gotrue-errors.js';
import { gotrueEmail, type updateUserBodySchema } from './gotrue-input.js';
import { hashPassword, passwordWeakness, verifyPassword } from './passwords.js';

/** UpdateUserBody is a parsed PUT /user body. */
export type UpdateUserBody = z.output<typeof updateUserBodySchema>;

/**
 * updateUser applies PUT /user for the signed-in user (protocol §2.6.5): merges `data` into
 * user_metadata, changes the password (every other session ends, pending mail tokens are dropped) and the
 * email (at once with autoconfirm, else after confirming a mail to the new address).
 */
export async function updateUser(
  deps: AuthDeps,
  user: SignedInUser,
  body: UpdateUserBody,
  redirectTo: string | null,
): Promise<AccountRow> {
  const { account } = user;
  if (body.app_metadata !== undefined && body.app_metadata !== null) throw notAdmin();
  if (body.phone) throw featureDisabled('phone_provider_disabled', 'Phone numbers are not supported');
  const changes: AccountChanges = {};

  if (body.data) {
    checkMetadataUsername(body.data);
    changes.userMetadata = mergeMetadata(parseMetadata(account.user_metadata), body.data);
  }
  if (body.password !== undefined && body.password !== null) {
    const weakness = passwordWeakness(body.password);
    if (weakness) throw weakPassword(weakness);
    if (await verifyPassword(account.password_hash, body.password)) throw samePassword();
    changes.password_hash = await hashPassword(body.password);
  }
  let pendingEmail: string | null = null;
  if (body.email) {
    const email = gotrueEmail(body.email);
    if (email !== account.email) {
      if (await findAccountWithEmail(deps.ctx.db.kysely, email)) throw emailExists();
      if (deps.autoconfirm) changes.email = email;
      else pendingEmail = email;
    }
  }

  const updated = await deps.ctx.db
    .transaction(async (trx) => {
      const row = await updateAccount(trx, account.id, changes, deps.now());
      if (changes.password_hash) await deps.sessions.endAll(trx, account.id, user.sessionId);
      return row ?? account;
    })
    .catch((error: unknown) => {
      throw clashError(error);
    });
  if (changes.password_hash) await deps.verification.clear(account.id, ['recovery', 'signup']);
  if (pendingEmail) await deps.verification.send(updated, 'email_change', { redirectTo, newEmail: pendingEmail });
  return updated;
}
