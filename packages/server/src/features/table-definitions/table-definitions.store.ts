import { DEFAULT_TABLE_ACCESS, normalizeAccess, type TableAccess, type TableSchema } from '@basalt/shared';
import type { Kysely, Selectable } from 'kysely';
import type { SystemDatabase, UserTablesTable } from '../../db/schema.js';
import type { TableDefinition } from '../../db/user-tables.js';

// The reads of table definitions (the `user_tables` system table), below both the tables feature that writes them
// and the features that read them (records' references, stats, insights, the table cache): no import runs back up
// into features/tables. The writes are in features/tables/tables.store.ts.

type Db = Kysely<SystemDatabase>;
type TableRow = Selectable<UserTablesTable>;

/** parseStoredAccess reads the `access` column (JSON text or NULL). */
export function parseStoredAccess(text: string | null): TableAccess {
  if (!text) return { ...DEFAULT_TABLE_ACCESS };
  try {
    return normalizeAccess(JSON.parse(text));
  } catch {
    return { ...DEFAULT_TABLE_ACCESS };
  }
}

/** toDefinition reads a stored definition (its schema and access rules parsed). */
export function toDefinition(row: TableRow): TableDefinition {
  return {
    id: Number(row.id),
    accountId: row.account_id,
    name: row.name,
    description: row.description,
    schema: JSON.parse(row.schema) as TableSchema,
    schemaVersion: Number(row.schema_version),
    access: parseStoredAccess(row.access),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** findTableDefinitionById reads one definition of an account, or null. */
export async function findTableDefinitionById(db: Db, accountId: string, id: number): Promise<TableDefinition | null> {
  const row = await db
    .selectFrom('user_tables')
    .selectAll()
    .where('id', '=', id)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  return row ? toDefinition(row) : null;
}

/** findTableDefinitionByName reads an account's definition by name, ignoring case, or null. */
export async function findTableDefinitionByName(
  db: Db,
  accountId: string,
  name: string,
): Promise<TableDefinition | null> {
  const row = await db
    .selectFrom('user_tables')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('name_key', '=', name.toLowerCase())
    .executeTakeFirst();
  return row ? toDefinition(row) : null;
}

/** listTableDefinitions lists an account's definitions, newest first. */
export async function listTableDefinitions(db: Db, accountId: string): Promise<TableDefinition[]> {
  const rows = await db
    .selectFrom('user_tables')
    .selectAll()
    .where('account_id', '=', accountId)
    .orderBy('id', 'desc')
    .execute();
  return rows.map(toDefinition);
}
