import type { Kysely, Selectable } from 'kysely';
import type { AppsTable, SystemDatabase } from '../../db/schema.js';

// The SQL of apps (one row per account that has used its app). Users of apps are in app-users.store.ts.

type Db = Kysely<SystemDatabase>;

/** AppRow is one stored app. */
export type AppRow = Selectable<AppsTable>;

/** findAppOfAccount reads an account's app, or undefined before its first use. */
export function findAppOfAccount(db: Db, accountId: string): Promise<AppRow | undefined> {
  return db.selectFrom('apps').selectAll().where('account_id', '=', accountId).executeTakeFirst();
}

/** findAppByRef reads the app a ref names, or undefined. */
export function findAppByRef(db: Db, ref: string): Promise<AppRow | undefined> {
  return db.selectFrom('apps').selectAll().where('ref', '=', ref).executeTakeFirst();
}

/**
 * insertAppIfMissing stores an account's app unless it has one; concurrent first uses race on the primary key
 * and the loser inserts nothing (its caller reads the winner's row).
 */
export async function insertAppIfMissing(db: Db, row: AppRow): Promise<void> {
  await db
    .insertInto('apps')
    .values(row)
    .onConflict((oc) => oc.column('account_id').doNothing())
    .execute();
}

/** updateAppKeys stores an app's new keys. */
export async function updateAppKeys(
  db: Db,
  accountId: string,
  keys: { anonKey: string; serviceKey: string },
  at: string,
): Promise<void> {
  await db
    .updateTable('apps')
    .set({ anon_key: keys.anonKey, service_key: keys.serviceKey, updated_at: at })
    .where('account_id', '=', accountId)
    .execute();
}

/** updateAppSettings stores an app's settings (JSON). */
export async function updateAppSettings(db: Db, accountId: string, settings: string, at: string): Promise<void> {
  await db.updateTable('apps').set({ settings, updated_at: at }).where('account_id', '=', accountId).execute();
}
