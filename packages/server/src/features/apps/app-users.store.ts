import type { Kysely, Selectable, Updateable } from 'kysely';
import type { AppUsersTable, SystemDatabase } from '../../db/schema.js';
import { userSearchCondition } from '../../lib/search/user-search.js';
import { asUniqueViolation } from '../auth/users/accounts.store.js';

// The SQL of an app's end users (`app_users`). Every statement names the app: a user id or email of another app
// is simply not found. Writes that clash with another user's email or username of the same app throw
// UniqueViolation (features/auth).

type Db = Kysely<SystemDatabase>;

/** AppUserRow is one stored end user. */
export type AppUserRow = Selectable<AppUsersTable>;

/** findAppUserById reads one of an app's users, or undefined. */
export function findAppUserById(db: Db, appId: string, id: string): Promise<AppUserRow | undefined> {
  return db.selectFrom('app_users').selectAll().where('app_id', '=', appId).where('id', '=', id).executeTakeFirst();
}

/** findAppUserByEmail reads the user of an app with a (lower-cased) email, or undefined. */
export function findAppUserByEmail(db: Db, appId: string, email: string): Promise<AppUserRow | undefined> {
  return db
    .selectFrom('app_users')
    .selectAll()
    .where('app_id', '=', appId)
    .where('email', '=', email)
    .executeTakeFirst();
}

/** insertAppUser stores a new user; throws UniqueViolation on a taken email or username. */
export async function insertAppUser(db: Db, row: AppUserRow): Promise<void> {
  try {
    await db.insertInto('app_users').values(row).execute();
  } catch (error) {
    throw asUniqueViolation(error);
  }
}

/** updateAppUserRow changes some columns of an app's user; throws UniqueViolation on a clash. */
export async function updateAppUserRow(
  db: Db,
  appId: string,
  id: string,
  patch: Updateable<AppUsersTable>,
): Promise<void> {
  try {
    await db.updateTable('app_users').set(patch).where('app_id', '=', appId).where('id', '=', id).execute();
  } catch (error) {
    throw asUniqueViolation(error);
  }
}

/** deleteAppUser deletes one of an app's users (sessions and tokens cascade); true when it existed. */
export async function deleteAppUser(db: Db, appId: string, id: string): Promise<boolean> {
  const result = await db.deleteFrom('app_users').where('app_id', '=', appId).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** listAppUsersPage returns a page of an app's users, newest first, matching `search` when given. */
export function listAppUsersPage(
  db: Db,
  appId: string,
  page: { limit: number; offset: number; search?: string | null },
): Promise<AppUserRow[]> {
  const { search } = page;
  return db
    .selectFrom('app_users')
    .selectAll()
    .where('app_id', '=', appId)
    .$if(Boolean(search), (q) => q.where((eb) => userSearchCondition(eb, 'app_users', search ?? '')))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

/** countAppUsers counts an app's users, or those matching `search`. */
export async function countAppUsers(db: Db, appId: string, search?: string | null): Promise<number> {
  const row = await db
    .selectFrom('app_users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('app_id', '=', appId)
    .$if(Boolean(search), (q) => q.where((eb) => userSearchCondition(eb, 'app_users', search ?? '')))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** findAppUserNames returns the username (else email) of those of `ids` that are users of the app. */
export async function findAppUserNames(db: Db, appId: string, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('app_users')
    .select(['id', 'username', 'email'])
    .where('app_id', '=', appId)
    .where('id', 'in', ids)
    .execute();
  return new Map(rows.map((row) => [row.id, row.username ?? row.email]));
}
