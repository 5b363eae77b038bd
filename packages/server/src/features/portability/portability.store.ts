import { type Kysely, type Selectable, sql } from 'kysely';
import { userTableName } from '../../db/identifiers.js';
import type { ChangeHistoryTable, CheckpointsTable, SystemDatabase, UserTablesTable } from '../../db/schema.js';

// The SQL of an account's export and import: its definitions, its tables' rows, history and checkpoints, read a
// page at a time by id; rows written back with their ids.

type Executor = Kysely<SystemDatabase>;

/** PAGE is how many rows one read takes. */
export const PAGE = 1000;

/** listOwnDefinitions lists an account's table definitions, oldest first. */
export async function listOwnDefinitions(db: Executor, accountId: string): Promise<Selectable<UserTablesTable>[]> {
  return db.selectFrom('user_tables').selectAll().where('account_id', '=', accountId).orderBy('id').execute();
}

/** listDefinitionNames lists the lower-cased names of an account's tables. */
export async function listDefinitionNames(db: Executor, accountId: string): Promise<string[]> {
  const rows = await db.selectFrom('user_tables').select('name_key').where('account_id', '=', accountId).execute();
  return rows.map((row) => row.name_key);
}

/** readRowsPage reads up to PAGE rows of a user table after an id, in id order. */
export async function readRowsPage(db: Executor, tableId: number, afterId: number): Promise<Record<string, unknown>[]> {
  const { rows } = await sql<Record<string, unknown>>`SELECT * FROM ${sql.table(userTableName(tableId))}
    WHERE id > ${afterId} ORDER BY id LIMIT ${PAGE}`.execute(db);
  return rows;
}

/** readHistoryPage reads up to PAGE history entries of an account's tables after an id, in id order. */
export async function readHistoryPage(
  db: Executor,
  accountId: string,
  tableIds: number[],
  afterId: number,
): Promise<Selectable<ChangeHistoryTable>[]> {
  if (tableIds.length === 0) return [];
  return db
    .selectFrom('change_history')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('table_id', 'in', tableIds)
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(PAGE)
    .execute();
}

/** listOwnCheckpoints lists an account's checkpoints of the given tables. */
export async function listOwnCheckpoints(
  db: Executor,
  accountId: string,
  tableIds: number[],
): Promise<Selectable<CheckpointsTable>[]> {
  if (tableIds.length === 0) return [];
  return db
    .selectFrom('checkpoints')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('table_id', 'in', tableIds)
    .orderBy('id')
    .execute();
}

/** insertRows writes rows (column → stored value) into a user table, ids included. */
export async function insertRows(db: Executor, tableId: number, rows: Record<string, unknown>[]): Promise<void> {
  if (rows.length === 0) return;
  // biome-ignore lint/suspicious/noExplicitAny: a user table's columns are known only at run time.
  await (db as Kysely<any>).insertInto(userTableName(tableId)).values(rows).execute();
}

/** insertHistoryEntry writes one history entry and returns its new id. */
export async function insertHistoryEntry(
  db: Executor,
  entry: Omit<Selectable<ChangeHistoryTable>, 'id'>,
): Promise<number> {
  const row = await db.insertInto('change_history').values(entry).returning('id').executeTakeFirstOrThrow();
  return Number(row.id);
}

/** insertCheckpoint writes one checkpoint. */
export async function insertCheckpoint(db: Executor, checkpoint: Omit<Selectable<CheckpointsTable>, 'id'>) {
  await db.insertInto('checkpoints').values(checkpoint).execute();
}
