import type { PasswordPolicy } from '@basalt/shared';
import type { z } from 'zod';
import { ApiError } from '../../../http/errors.js';
import type { AuthDeps } from '../auth-deps.js';
import { clashError, featureDisabled, validationFailed, weakPassword } from '../protocol/gotrue-errors.js';
import { type adminUserBodySchema, gotrueEmail, UUID_PATTERN } from '../protocol/gotrue-input.js';
import { syncEmailIdentity } from '../signup/identities.service.js';
import { registerUser } from '../signup/user-creation.service.js';
import { checkMetadataUsername, mergeMetadata, parseMetadata } from '../users/accounts.service.js';
import { hashPassword, passwordWeakness } from '../users/passwords.js';
import type { UserChanges, UserRow } from '../users/user-pool.js';

/** AdminUserBody is a parsed AdminUserAttributes body. */
export type AdminUserBody = z.output<typeof adminUserBodySchema>;

const DURATION_UNITS_MS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

/** bannedUntilOf turns GoTrue's ban_duration (a Go duration such as "24h" or "1h30m", or "none") into banned_until. */
function bannedUntilOf(duration: string, now: Date): string | null {
  if (duration === 'none') return null;
  const parts = [...duration.matchAll(/(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join('') !== duration) {
    throw validationFailed('ban_duration must be "none" or a duration such as "24h" or "1h30m"');
  }
  const ms = parts.reduce((sum, p) => sum + Number(p[1]) * (DURATION_UNITS_MS[p[2] ?? 's'] ?? 0), 0);
  return new Date(now.getTime() + ms).toISOString();
}

// The password columns from either a clear password (policy-checked) or an argon2 hash.
async function passwordHashOf(body: AdminUserBody, policy: PasswordPolicy | null): Promise<string | undefined> {
  if (body.password && body.password_hash) throw validationFailed('Send either password or password_hash, not both');
  if (body.password_hash) {
    if (!body.password_hash.startsWith('$argon2')) throw validationFailed('password_hash must be an argon2 hash');
    return body.password_hash;
  }
  if (!body.password) return undefined;
  const weakness = passwordWeakness(body.password, policy);
  if (weakness) throw weakPassword(weakness);
  return hashPassword(body.password);
}

/** parseUserId checks an admin path id: a UUID, else 404 validation_failed. */
export function parseUserId(id: string): string {
  if (!UUID_PATTERN.test(id)) throw new ApiError(404, 'validation_failed', 'User ID must be a UUID');
  return id.toLowerCase();
}

/** listUsersPage returns a page of the pool's users, newest first, and the total. */
export async function listUsersPage<R extends UserRow>(
  deps: AuthDeps<R>,
  page: number,
  perPage: number,
): Promise<{ accounts: R[]; total: number }> {
  const db = deps.ctx.db.kysely;
  const [accounts, total] = await Promise.all([
    deps.pool.users.listPage(db, { limit: perPage, offset: (page - 1) * perPage }),
    deps.pool.users.count(db),
  ]);
  return { accounts, total };
}

/** createUserAsAdmin is POST /admin/users: a user with an optional password, confirmed on request. */
export async function createUserAsAdmin<R extends UserRow>(deps: AuthDeps<R>, body: AdminUserBody): Promise<R> {
  if (!body.email) {
    if (body.phone) throw featureDisabled('phone_provider_disabled', 'Phone users are not supported');
    throw validationFailed('Cannot create a user without an email address');
  }
  const email = gotrueEmail(body.email);
  const id = body.id ? parseUserIdForCreate(body.id) : undefined;
  if (id && (await deps.pool.users.findById(deps.ctx.db.kysely, id))) {
    throw new ApiError(422, 'user_already_exists', 'A user with this ID already exists');
  }
  const userMetadata = body.user_metadata ?? {};
  checkMetadataUsername(userMetadata);
  const passwordHash = (await passwordHashOf(body, deps.pool.settings.passwordPolicy)) ?? null;
  const now = deps.now();
  const bannedUntil = body.ban_duration ? bannedUntilOf(body.ban_duration, now) : null;
  return deps.ctx.db
    .transaction(async (scope) => {
      // user_metadata is stored exactly as sent (GoTrue's admin API adds no identity keys to it).
      const account = await registerUser(
        deps,
        scope,
        {
          id,
          email,
          passwordHash,
          userMetadata,
          appMetadata: body.app_metadata ?? {},
          confirmed: body.email_confirm === true,
        },
        now,
      );
      if (!bannedUntil) return account;
      return (await deps.pool.users.update(scope.kysely, account.id, { banned_until: bannedUntil }, now)) ?? account;
    })
    .catch((error: unknown) => {
      throw clashError(error);
    });
}

function parseUserIdForCreate(id: string): string {
  if (!UUID_PATTERN.test(id)) throw validationFailed('id must be a UUID');
  return id.toLowerCase();
}

/** updateUserAsAdmin is PUT /admin/users/{id}; a new password ends every session of the user. */
export async function updateUserAsAdmin<R extends UserRow>(
  deps: AuthDeps<R>,
  account: R,
  body: AdminUserBody,
): Promise<R> {
  const now = deps.now();
  const changes: UserChanges = {};
  if (body.email) changes.email = gotrueEmail(body.email);
  // An anonymous user given an address by the administrator is a permanent user (GoTrue's).
  if (changes.email && account.is_anonymous === 1) changes.is_anonymous = 0;
  if (body.email_confirm === true && !account.email_confirmed_at) changes.email_confirmed_at = now.toISOString();
  if (body.user_metadata) {
    checkMetadataUsername(body.user_metadata);
    changes.userMetadata = mergeMetadata(parseMetadata(account.user_metadata), body.user_metadata);
  }
  if (body.app_metadata) changes.appMetadata = mergeMetadata(parseMetadata(account.app_metadata), body.app_metadata);
  if (body.ban_duration) changes.banned_until = bannedUntilOf(body.ban_duration, now);
  const passwordHash = await passwordHashOf(body, deps.pool.settings.passwordPolicy);
  if (passwordHash) changes.password_hash = passwordHash;
  return deps.ctx.db
    .transaction(async (scope) => {
      let updated = (await deps.pool.users.update(scope.kysely, account.id, changes, now)) ?? account;
      if (changes.email || changes.email_confirmed_at)
        updated = await syncEmailIdentity(deps, scope.kysely, updated, now);
      if (passwordHash || changes.banned_until) await deps.sessions.endAll(scope, account.id);
      return updated;
    })
    .catch((error: unknown) => {
      throw clashError(error);
    });
}

/** deleteUserAsAdmin deletes a user; every node forgets its sessions once that has committed. */
export async function deleteUserAsAdmin<R extends UserRow>(deps: AuthDeps<R>, id: string): Promise<void> {
  await deps.ctx.db.transaction(async (scope) => {
    await deps.pool.users.remove(scope.kysely, id);
    deps.pool.sessionsEnded(scope, id);
  });
}
