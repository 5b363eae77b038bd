import type { TableAccess, TableSchema } from '@basalt/shared';
import type { Kysely } from 'kysely';
import type { SystemDatabase } from '../../db/schema.js';
import { toDefinition } from '../table-definitions/table-definitions.store.js';
import { storedAccess } from './table-access.js';
import type { TableDefinition } from './table-definition.js';

// The SQL that writes table definitions (the `user_tables` system table); the reads are in
// features/table-definitions, below every feature that reads them. The real tables are in db/user-tables.ts.

type Db = Kysely<SystemDatabase>;

/** NewTableRow is what creating a definition stores; a table brought back from history keeps its id and createdAt. */
export interface NewTableRow {
  accountId: string;
  name: string;
  description: string | null;
  schema: TableSchema;
  access?: TableAccess;
  now: string;
  id?: number;
  createdAt?: string;
}

/** insertTableDefinition stores a new definition and returns it with its id. */
export async function insertTableDefinition(db: Db, row: NewTableRow): Promise<TableDefinition> {
  const inserted = await db
    .insertInto('user_tables')
    .values({
      ...(row.id === undefined ? {} : { id: row.id }),
      account_id: row.accountId,
      name: row.name,
      name_key: row.name.toLowerCase(),
      description: row.description,
      schema: JSON.stringify(row.schema),
      access: row.access ? storedAccess(row.access) : null,
      schema_version: 1,
      created_at: row.createdAt ?? row.now,
      updated_at: row.now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toDefinition(inserted);
}

/** countTableDefinitions counts an account's tables. */
export async function countTableDefinitions(db: Db, accountId: string): Promise<number> {
  const row = await db
    .selectFrom('user_tables')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** TableDefinitionPatch is a change of a definition's name, description, schema or access rules. */
export interface TableDefinitionPatch {
  name?: string;
  description?: string | null;
  schema?: TableSchema;
  access?: TableAccess;
  now: string;
}

/** updateTableDefinition changes a definition, bumps its version, and returns it as it now is. */
export async function updateTableDefinition(db: Db, id: number, patch: TableDefinitionPatch): Promise<TableDefinition> {
  const updated = await db
    .updateTable('user_tables')
    .set((eb) => ({
      ...(patch.name === undefined ? {} : { name: patch.name, name_key: patch.name.toLowerCase() }),
      ...(patch.description === undefined ? {} : { description: patch.description }),
      ...(patch.schema === undefined ? {} : { schema: JSON.stringify(patch.schema) }),
      ...(patch.access === undefined ? {} : { access: storedAccess(patch.access) }),
      schema_version: eb('schema_version', '+', 1),
      updated_at: patch.now,
    }))
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
  return toDefinition(updated);
}

/** deleteTableDefinition removes a definition (its history stays). */
export async function deleteTableDefinition(db: Db, id: number): Promise<void> {
  await db.deleteFrom('user_tables').where('id', '=', id).execute();
}
