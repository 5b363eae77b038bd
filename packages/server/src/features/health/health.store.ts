import { type Kysely, sql } from 'kysely';
import type { SystemDatabase } from '../../db/schema.js';

/** pingDatabase is a round trip that reads nothing: `SELECT 1`. */
export async function pingDatabase(db: Kysely<SystemDatabase>): Promise<void> {
  await sql`SELECT 1`.execute(db);
}

/** readOneSetting reads one row of a small system table by its primary key's index. */
export async function readOneSetting(db: Kysely<SystemDatabase>): Promise<void> {
  await db.selectFrom('instance_settings').select('key').orderBy('key').limit(1).execute();
}

/** TableDefinitionRef names a table definition and its owner. */
export interface TableDefinitionRef {
  id: number;
  name: string;
  account_id: string;
}

/** listAllTableDefinitions lists every account's table definitions (the integrity check compares them). */
export function listAllTableDefinitions(db: Kysely<SystemDatabase>): Promise<TableDefinitionRef[]> {
  return db.selectFrom('user_tables').select(['id', 'name', 'account_id']).orderBy('id').execute();
}
