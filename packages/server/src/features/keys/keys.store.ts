import type { Kysely, Selectable } from 'kysely';
import type { ApiKeysTable, SystemDatabase } from '../../db/schema.js';

// The SQL of API keys (the `api_keys` system table). Secrets never reach this file: only their sha256.

type Db = Kysely<SystemDatabase>;

/** ApiKeyRow is one stored key. */
export type ApiKeyRow = Selectable<ApiKeysTable>;

/** NewApiKeyRow is what creating a key stores. */
export interface NewApiKeyRow {
  accountId: string;
  name: string;
  keyHash: string;
  prefix: string;
  now: string;
}

/** insertApiKey stores a new key and returns it with its id. */
export function insertApiKey(db: Db, row: NewApiKeyRow): Promise<ApiKeyRow> {
  return db
    .insertInto('api_keys')
    .values({
      account_id: row.accountId,
      name: row.name,
      key_hash: row.keyHash,
      prefix: row.prefix,
      created_at: row.now,
      last_used_at: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** listApiKeysOf lists an account's keys, oldest first. */
export function listApiKeysOf(db: Db, accountId: string): Promise<ApiKeyRow[]> {
  return db.selectFrom('api_keys').selectAll().where('account_id', '=', accountId).orderBy('id', 'asc').execute();
}

/** deleteApiKeyOf deletes one of an account's keys and returns it as it was, or undefined when it has none such. */
export function deleteApiKeyOf(db: Db, accountId: string, id: number): Promise<ApiKeyRow | undefined> {
  return db
    .deleteFrom('api_keys')
    .where('id', '=', id)
    .where('account_id', '=', accountId)
    .returningAll()
    .executeTakeFirst();
}

/** ApiKeyOwner is what a request needs of a key: its id and its account. */
export interface ApiKeyOwner {
  id: number;
  account_id: string;
}

/** findApiKeyByHash reads the key with this secret hash, or undefined. */
export function findApiKeyByHash(db: Db, keyHash: string): Promise<ApiKeyOwner | undefined> {
  return db.selectFrom('api_keys').select(['id', 'account_id']).where('key_hash', '=', keyHash).executeTakeFirst();
}

/** touchApiKey sets a key's last use. */
export async function touchApiKey(db: Db, id: number, at: string): Promise<void> {
  await db.updateTable('api_keys').set({ last_used_at: at }).where('id', '=', id).execute();
}
