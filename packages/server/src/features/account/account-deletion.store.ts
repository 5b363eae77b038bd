import { type Kysely, sql } from 'kysely';
import type { SqlDialect } from '../../db/dialect/dialect.js';
import type { SystemDatabase } from '../../db/schema.js';

// The SQL of deleting an account that other features' stores do not have: what the account owns outside its
// own row (table ids, API key hashes), and a lock on the row. Everything else goes by ON DELETE CASCADE.

type Db = Kysely<SystemDatabase>;

/**
 * lockAccountRow locks an account's row until the transaction ends (PostgreSQL `FOR UPDATE`; SQLite runs one
 * writer at a time). Every insert that references the account (a new table, key, history entry) waits for it.
 */
export async function lockAccountRow(db: Db, dialect: SqlDialect, accountId: string): Promise<void> {
  await sql`SELECT id FROM accounts WHERE id = ${accountId}${sql.raw(dialect.userTables.rowLockSql)}`.execute(db);
}

/** listTableIdsOf lists the ids of an account's table definitions (each one's rows live in `t_<id>`). */
export async function listTableIdsOf(db: Db, accountId: string): Promise<number[]> {
  const rows = await db.selectFrom('user_tables').select('id').where('account_id', '=', accountId).execute();
  return rows.map((row) => Number(row.id));
}

/** listApiKeyHashesOf lists the secret hashes of an account's API keys. */
export async function listApiKeyHashesOf(db: Db, accountId: string): Promise<string[]> {
  const rows = await db.selectFrom('api_keys').select('key_hash').where('account_id', '=', accountId).execute();
  return rows.map((row) => row.key_hash);
}

/**
 * deleteLogsOfAccount deletes the account's entries of Basalt's own log (features/logs). system_logs has no
 * foreign key on purpose (an administrator's entries outlive accounts), so an account's own entries go here.
 */
export async function deleteLogsOfAccount(db: Db, accountId: string): Promise<void> {
  await db.deleteFrom('system_logs').where('account_id', '=', accountId).execute();
}
