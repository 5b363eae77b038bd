import {
  createEndUserSchema,
  type EndUserSummary,
  type EndUsersPage,
  updateEndUserSchema,
  userListQuerySchema,
} from '@basalt/shared';
import type { Db } from '../../db/database.js';
import { conflict, invalid, notFound } from '../../http/errors.js';
import { parseInput } from '../../http/validation.js';
import type { Actor } from '../../lib/actor/actor.js';
import { recordActivity } from '../activity/activity.service.js';
import { appIdentitiesOf, appUsersOf } from '../apps/apps.service.js';
import type { AuthDeps } from '../auth/auth-deps.js';
import { UUID_PATTERN } from '../auth/protocol/gotrue-input.js';
import { storeEmailIdentity } from '../auth/signup/identities.service.js';
import { registerEmailUser } from '../auth/signup/user-creation.service.js';
import { mergeMetadata, parseMetadata, UniqueViolation, usernameOf } from '../auth/users/accounts.service.js';
import { hashPassword, passwordWeakness } from '../auth/users/passwords.js';
import type { UserRow } from '../auth/users/user-pool.js';

// The Users page: the end users of the caller's app, searched and paged
// on the server, added, edited, deleted, banned. They are the very users /auth/v1 signs in with the app's keys;
// another account's users are unknown here (404), like ids that do not exist.

/** A ban from the Users page lasts until lifted (GoTrue's ban_duration of about a century). */
const BAN_YEARS = 100;

const userNotFound = () => notFound('User not found', 'user_not_found');

function clash(error: unknown): unknown {
  if (!(error instanceof UniqueViolation)) return error;
  return error.column === 'email'
    ? conflict('A user with this email address already exists', 'email_exists', {
        fieldErrors: { email: ['A user with this email address already exists'] },
      })
    : conflict('This username is already taken', 'username_exists', {
        fieldErrors: { username: ['This username is already taken'] },
      });
}

/** toEndUserSummary renders a user for the Users page. */
export function toEndUserSummary(user: UserRow): EndUserSummary {
  return {
    id: user.id,
    username: usernameOf(user),
    // An anonymous user has no address (its column holds a placeholder).
    email: user.is_anonymous === 1 ? '' : user.email,
    createdAt: user.created_at,
    lastSignInAt: user.last_sign_in_at,
    confirmed: user.email_confirmed_at !== null,
    bannedUntil: user.banned_until,
  };
}

/** listEndUsers is GET /api/users: a page of the caller's app's users, newest first, matching `search`. */
export async function listEndUsers(db: Db, actor: Actor, query: unknown): Promise<EndUsersPage> {
  const { page, limit, search } = parseInput(userListQuerySchema, query);
  const users = appUsersOf(actor.accountId);
  const [rows, totalItems] = await Promise.all([
    users.listPage(db.kysely, { limit, offset: (page - 1) * limit, search }),
    users.count(db.kysely, search),
  ]);
  const totalPages = Math.max(1, Math.ceil(totalItems / limit));
  return {
    data: rows.map(toEndUserSummary),
    pagination: { totalItems, totalPages, currentPage: page, hasNext: page < totalPages, hasPrevious: page > 1 },
  };
}

/** findEndUser returns one of the caller's app's users, or throws 404 (any id that is not a UUID too). */
export async function findEndUser(db: Db, actor: Actor, id: string): Promise<UserRow> {
  if (!UUID_PATTERN.test(id)) throw userNotFound();
  const user = await appUsersOf(actor.accountId).findById(db.kysely, id.toLowerCase());
  if (!user) throw userNotFound();
  return user;
}

/** createEndUser is POST /api/users: a confirmed user of the caller's app; 409 for a taken email or username. */
export async function createEndUser(deps: AuthDeps<UserRow>, input: unknown): Promise<EndUserSummary> {
  const { username, email, password } = parseInput(createEndUserSchema, input);
  // The app's own password policy, as its users' sign-ups meet it.
  const weakness = passwordWeakness(password, deps.pool.settings.passwordPolicy);
  if (weakness) throw invalid({ password: [weakness.message] }, 'weak_password');
  const passwordHash = await hashPassword(password);
  try {
    // Made as a confirmed sign-up is (the same rows); the owner's feed says the user was added.
    const created = await deps.ctx.db.transaction((scope) =>
      registerEmailUser(deps, scope, { email, passwordHash, userMetadata: { username }, confirmed: true }, new Date(), {
        action: 'CREATE',
      }),
    );
    return toEndUserSummary(created);
  } catch (error) {
    throw clash(error);
  }
}

/** updateEndUser is PATCH /api/users/<id> {username?, email?}: applied at once (no confirmation mail). */
export async function updateEndUser(db: Db, actor: Actor, id: string, input: unknown): Promise<EndUserSummary> {
  const patch = parseInput(updateEndUserSchema, input);
  const user = await findEndUser(db, actor, id);
  const users = appUsersOf(actor.accountId);
  const userMetadata =
    patch.username === undefined
      ? undefined
      : mergeMetadata(parseMetadata(user.user_metadata), { username: patch.username });
  try {
    const updated = await db.transaction(async (scope) => {
      const now = new Date();
      const row = await users.update(
        scope.kysely,
        user.id,
        { ...(patch.email === undefined ? {} : { email: patch.email }), ...(userMetadata ? { userMetadata } : {}) },
        now,
      );
      if (row && patch.email !== undefined) {
        await storeEmailIdentity(scope.kysely, appIdentitiesOf(actor.accountId), row, now);
      }
      await recordActivity(
        scope.kysely,
        {
          accountId: actor.accountId,
          action: 'UPDATE',
          resource: 'app_users',
          details: { username: usernameOf(row ?? user) },
        },
        now,
      );
      return row ?? user;
    });
    return toEndUserSummary(updated);
  } catch (error) {
    throw clash(error);
  }
}

/** deleteEndUser is DELETE /api/users/<id>: the user, their sessions and tokens; their tokens stop at once. */
export async function deleteEndUser(db: Db, actor: Actor, id: string): Promise<EndUserSummary> {
  const user = await findEndUser(db, actor, id);
  await db.transaction(async (scope) => {
    await appUsersOf(actor.accountId).remove(scope.kysely, user.id);
    await recordActivity(scope.kysely, {
      accountId: actor.accountId,
      action: 'DELETE',
      resource: 'app_users',
      details: { username: usernameOf(user) },
    });
    scope.publish('app-sessions.ended', { userId: user.id });
  });
  return toEndUserSummary(user);
}

/**
 * setEndUserBanned bans a user (sign-in and refresh refused, every session ended at once on every node) or lifts
 * the ban; `deps` are the auth services of the caller's app.
 */
export async function setEndUserBanned(
  deps: AuthDeps<UserRow>,
  actor: Actor,
  id: string,
  banned: boolean,
): Promise<EndUserSummary> {
  const { db } = deps.ctx;
  const user = await findEndUser(db, actor, id);
  const updated = await db.transaction(async (scope) => {
    const now = new Date();
    const until = banned ? new Date(now.getTime() + BAN_YEARS * 365.25 * 24 * 3600_000).toISOString() : null;
    const row = await deps.pool.users.update(scope.kysely, user.id, { banned_until: until }, now);
    if (banned) await deps.sessions.endAll(scope, user.id);
    return row ?? user;
  });
  return toEndUserSummary(updated);
}

/**
 * sendEndUserPasswordReset mails a user of the caller's app a password-reset link and code (to the log without
 * SMTP), as `resetPasswordForEmail` would; 429 when one left less than a minute ago.
 */
export async function sendEndUserPasswordReset(deps: AuthDeps<UserRow>, actor: Actor, id: string): Promise<void> {
  const user = await findEndUser(deps.ctx.db, actor, id);
  await deps.verification.send(user, 'recovery', { redirectTo: null });
}
