import { createTableSchema, type TableSchema, updateTableSchema, userColumnsOf } from '@basalt/shared';
import type { Transaction } from 'kysely';
import type { Db } from '../../db/database.js';
import { userTableName } from '../../db/identifiers.js';
import type { SystemDatabase } from '../../db/schema.js';
import { createUserTable, dropUserTable } from '../../db/user-tables.js';
import { ApiError, badRequest, conflict, notFound } from '../../http/errors.js';
import { parseInput } from '../../http/validation.js';
import { type ActivityAction, recordActivity } from '../activity/activity.service.js';
import { recordChanges } from '../history/history.service.js';
import type { ChangeType } from '../history/history.store.js';
import { insertStoredRows } from '../records/record-inserts.js';
import { type RecordInput, toRecordRow } from '../records/record-values.js';
import { selectRows, syncIdCounter } from '../records/records.store.js';
import { storedAsItWas } from '../records/records-in-transaction.js';
import { applySchemaChange } from './schema-change.js';
import { describePlan, planSchemaChange } from './schema-plan.js';
import { tableCacheOf } from './table-cache.js';
import { type TableDefinition, type TableResponse, toTableResponse } from './table-definition.js';
import { applyTableSchema, type TableSchemaChange } from './table-schema-apply.js';
import {
  countTableDefinitions,
  deleteTableDefinition,
  findTableDefinitionById,
  findTableDefinitionByName,
  insertTableDefinition,
  listTableDefinitions,
  updateTableDefinition,
} from './tables.store.js';

// Table definitions and their real tables. Every change runs in one transaction with its history entry
// (SCHEMA_CREATE / SCHEMA_UPDATE / SCHEMA_DELETE) and activity entry, and refreshes this process's definition
// cache after the commit. Callers are the console routes and the /rest/v1/tables resource; both pass the
// caller's account, and another account's table answers exactly like a missing one (404). History's revert
// and restore change tables inside their own transaction with the *In functions (lockTableIn, changeTableIn,
// dropTableIn, recreateTableIn), which record the change the same way and leave the cache to their caller.

export type { TableDefinition, TableResponse } from './table-definition.js';

/** TableCaller is the account acting on its tables. */
export interface TableCaller {
  accountId: string;
}

type Trx = Transaction<SystemDatabase>;

const nameTaken = (name: string) =>
  conflict(`A table named "${name}" already exists`, 'table_exists', {
    fieldErrors: { name: [`A table named "${name}" already exists`] },
  });
const tableNotFound = () => notFound('Table not found', 'table_not_found');

function isNameClash(db: Db, error: unknown): boolean {
  const info = db.dialect.userTables.describeError(error);
  return (
    info?.kind === 'unique' && (info.table === 'user_tables' || info.constraint === 'user_tables_account_name_key')
  );
}

/** ChangeOptions say when a change happens and, for history's revert and restore, which change it reverts. */
export interface ChangeOptions {
  now: Date;
  revertOf?: number | null;
}

async function record(
  db: Db,
  trx: Trx,
  caller: TableCaller,
  table: TableDefinition,
  change: { type: ChangeType; action: ActivityAction; previous: unknown; next: unknown },
  { now, revertOf = null }: ChangeOptions,
) {
  await recordChanges(
    trx,
    db.dialect,
    [
      {
        accountId: caller.accountId,
        tableId: table.id,
        tableName: table.name,
        recordId: null,
        changeType: change.type,
        previousState: change.previous,
        newState: change.next,
        actorId: caller.accountId,
        revertOf,
      },
    ],
    now,
  );
  await recordActivity(
    trx,
    { accountId: caller.accountId, action: change.action, resource: 'tables', details: { name: table.name } },
    now,
  );
}

const definitionState = (table: TableDefinition) => ({
  name: table.name,
  description: table.description,
  schema: toTableResponse(table).schema,
});

/** createTable validates a new table (createTableSchema), creates its definition and real table, and returns it. */
export async function createTable(db: Db, caller: TableCaller, input: unknown): Promise<TableResponse> {
  const request = parseInput(createTableSchema, input);
  if (await findTableDefinitionByName(db.kysely, caller.accountId, request.name)) throw nameTaken(request.name);
  const now = new Date();
  let created: TableDefinition;
  try {
    created = await db.transaction(async (trx) => {
      const table = await insertTableDefinition(trx, {
        accountId: caller.accountId,
        name: request.name,
        description: request.description ?? null,
        schema: userColumnsOf(request.schema),
        now: now.toISOString(),
      });
      await createUserTable(trx, db.dialect, table);
      await record(
        db,
        trx,
        caller,
        table,
        { type: 'SCHEMA_CREATE', action: 'CREATE', previous: null, next: toTableResponse(table) },
        { now },
      );
      return table;
    });
  } catch (error) {
    throw isNameClash(db, error) ? nameTaken(request.name) : error;
  }
  tableCacheOf(db).remember(created);
  return toTableResponse(created);
}

/** listTables lists the caller's tables, newest first. */
export async function listTables(db: Db, caller: TableCaller): Promise<TableResponse[]> {
  return (await listTableDefinitions(db.kysely, caller.accountId)).map(toTableResponse);
}

/** countTables counts the caller's tables. */
export function countTables(db: Db, caller: TableCaller): Promise<number> {
  return countTableDefinitions(db.kysely, caller.accountId);
}

/** findTableById returns one of an account's definitions (from the cache when it can), or null. */
export async function findTableById(db: Db, accountId: string, id: number): Promise<TableDefinition | null> {
  if (!Number.isSafeInteger(id) || id < 1) return null;
  const cache = tableCacheOf(db);
  const cached = cache.byId(id);
  if (cached) return cached.accountId === accountId ? cached : null;
  const table = await findTableDefinitionById(db.kysely, accountId, id);
  if (table) cache.remember(table);
  return table;
}

/** findTableByName returns an account's definition by name, ignoring case (from the cache when it can), or null. */
export async function findTableByName(db: Db, accountId: string, name: string): Promise<TableDefinition | null> {
  const cache = tableCacheOf(db);
  const cached = cache.byName(accountId, name);
  if (cached) return cached;
  const table = await findTableDefinitionByName(db.kysely, accountId, name);
  if (table) cache.remember(table);
  return table;
}

/** getTable returns one of the caller's tables, or throws 404. */
export async function getTable(db: Db, caller: TableCaller, id: number): Promise<TableResponse> {
  const table = await findTableById(db, caller.accountId, id);
  if (!table) throw tableNotFound();
  return toTableResponse(table);
}

/**
 * lockTableIn reads one of the caller's definitions inside a transaction and locks its real table, so that no
 * write runs against a schema that is about to change; null when the caller has no such table.
 */
export async function lockTableIn(trx: Trx, db: Db, caller: TableCaller, id: number): Promise<TableDefinition | null> {
  if (!Number.isSafeInteger(id) || id < 1) return null;
  const found = await findTableDefinitionById(trx, caller.accountId, id);
  if (!found) return null;
  await db.dialect.userTables.lockTable(trx, userTableName(id));
  return (await findTableDefinitionById(trx, caller.accountId, id)) ?? found;
}

async function lockOwnTable(trx: Trx, db: Db, caller: TableCaller, id: number): Promise<TableDefinition> {
  const table = await lockTableIn(trx, db, caller, id);
  if (!table) throw tableNotFound();
  return table;
}

/** TableChangePreview is what a change would do: the steps in words, and the refusal the rows give, if any. */
export interface TableChangePreview {
  changes: string[];
  refusal: { message: string; column: string | null } | null;
}

class PreviewDone extends Error {}

/**
 * updateTable renames, re-describes and/or changes the schema of a table (updateTableSchema: `schema` is the
 * complete new schema, `renames` maps old → new column names). It all runs in one transaction; a change the
 * rows cannot satisfy is refused with 409 naming the column and the count, and nothing changes.
 */
export async function updateTable(db: Db, caller: TableCaller, id: number, input: unknown): Promise<TableResponse> {
  const request = parseInput(updateTableSchema, input);
  if (request.renames && !request.schema) throw badRequest('validation_failed', 'Column renames need the new schema');
  const now = new Date();
  let updated: TableDefinition;
  try {
    updated = await db.transaction(async (trx) =>
      changeTableIn(trx, db, caller, await lockOwnTable(trx, db, caller, id), request, { now }),
    );
  } catch (error) {
    tableCacheOf(db).evict(id);
    throw isNameClash(db, error) && request.name ? nameTaken(request.name) : error;
  }
  tableCacheOf(db).remember(updated);
  return toTableResponse(updated);
}

/** TableChange is a validated change of a table's name, description and/or schema (see TableSchemaChange). */
export interface TableChange extends Partial<TableSchemaChange> {
  name?: string | undefined;
  description?: string | null | undefined;
}

/**
 * changeTableIn changes a table that lockTableIn locked, inside the caller's transaction, and records its
 * SCHEMA_UPDATE: both definitions, the renames, and the data of the columns it dropped or retyped (so that the
 * change can be reverted). It returns the table as it now is (`current` when nothing changed).
 */
export async function changeTableIn(
  trx: Trx,
  db: Db,
  caller: TableCaller,
  current: TableDefinition,
  change: TableChange,
  options: ChangeOptions,
): Promise<TableDefinition> {
  const renamed = change.name !== undefined && change.name !== current.name;
  if (renamed && change.name && change.name.toLowerCase() !== current.name.toLowerCase()) {
    if (await findTableDefinitionByName(trx, caller.accountId, change.name)) throw nameTaken(change.name);
  }
  const applied = change.schema
    ? await applyTableSchema(trx, db.dialect, current, {
        schema: change.schema,
        renames: change.renames ?? {},
        columnData: change.columnData ?? {},
      })
    : null;
  const described = change.description !== undefined && (change.description ?? null) !== current.description;
  if (!renamed && !described && !applied) return current;
  const next = await updateTableDefinition(trx, current.id, {
    ...(renamed ? { name: change.name } : {}),
    ...(described ? { description: change.description ?? null } : {}),
    ...(applied ? { schema: applied.schema } : {}),
    now: options.now.toISOString(),
  });
  const previous = {
    ...definitionState(current),
    ...(applied && Object.keys(applied.dropped).length > 0 ? { droppedColumns: applied.dropped } : {}),
    ...(applied && Object.keys(applied.retyped).length > 0 ? { retypedColumns: applied.retyped } : {}),
  };
  const nextState = { ...definitionState(next), ...(change.renames ? { renames: change.renames } : {}) };
  await record(db, trx, caller, next, { type: 'SCHEMA_UPDATE', action: 'UPDATE', previous, next: nextState }, options);
  return next;
}

/**
 * previewTableChange tells what a schema change would do, and whether the rows refuse it, by running it in a
 * transaction that is always rolled back.
 */
export async function previewTableChange(
  db: Db,
  caller: TableCaller,
  id: number,
  input: unknown,
): Promise<TableChangePreview> {
  const request = parseInput(updateTableSchema, input);
  let preview: TableChangePreview = { changes: [], refusal: null };
  try {
    await db.transaction(async (trx) => {
      const current = await lockOwnTable(trx, db, caller, id);
      const plan = planSchemaChange(current.schema, request.schema ?? current.schema, request.renames ?? {});
      preview = { changes: describePlan(plan), refusal: null };
      try {
        await applySchemaChange(trx, db.dialect, current, plan);
      } catch (error) {
        if (!(error instanceof ApiError) || error.status !== 409) throw error;
        const column = Object.keys(error.details.fieldErrors ?? {})[0] ?? null;
        preview = { ...preview, refusal: { message: error.message, column } };
      }
      throw new PreviewDone();
    });
  } catch (error) {
    if (!(error instanceof PreviewDone)) throw error;
  }
  return preview;
}

/**
 * deleteTable drops a table's real table with its data and its definition. Its SCHEMA_DELETE history entry
 * keeps the definition and every row (`previousState: {table, rows}`), which is how a deleted table is restored.
 */
export async function deleteTable(db: Db, caller: TableCaller, id: number): Promise<TableResponse> {
  const now = new Date();
  let deleted: TableDefinition;
  try {
    deleted = await db.transaction(async (trx) => {
      const table = await lockOwnTable(trx, db, caller, id);
      await dropTableIn(trx, db, caller, table, { now });
      return table;
    });
  } finally {
    tableCacheOf(db).evict(id);
  }
  return toTableResponse(deleted);
}

/** dropTableIn drops a table that lockTableIn locked, inside the caller's transaction, and records SCHEMA_DELETE. */
export async function dropTableIn(
  trx: Trx,
  db: Db,
  caller: TableCaller,
  table: TableDefinition,
  options: ChangeOptions,
): Promise<void> {
  const rows = (await selectRows(trx, db.dialect, table, {})).map((raw) => toRecordRow(db.dialect.name, table, raw));
  await dropUserTable(trx, table.id);
  await deleteTableDefinition(trx, table.id);
  const previous = { table: toTableResponse(table), rows };
  await record(db, trx, caller, table, { type: 'SCHEMA_DELETE', action: 'DELETE', previous, next: null }, options);
}

/** SavedTable is a dropped table as its SCHEMA_DELETE change keeps it: the definition and every record. */
export interface SavedTable {
  id: number;
  name: string;
  description: string | null;
  /** The user's columns (a system column named here is ignored). */
  schema: TableSchema;
  createdAt: string;
  rows: RecordInput[];
}

/**
 * recreateTableIn brings a dropped table back inside the caller's transaction: the same id, name, description,
 * schema and createdAt, every record with its id and created_at, and an id counter past `idFloor` (the largest
 * record id its history names, so that no id is handed out twice). It records SCHEMA_CREATE; 409 when the
 * account has another table of that name now.
 */
export async function recreateTableIn(
  trx: Trx,
  db: Db,
  caller: TableCaller,
  saved: SavedTable,
  options: ChangeOptions & { idFloor: number },
): Promise<TableDefinition> {
  if (await findTableDefinitionByName(trx, caller.accountId, saved.name)) throw nameTaken(saved.name);
  const table = await insertTableDefinition(trx, {
    id: saved.id,
    accountId: caller.accountId,
    name: saved.name,
    description: saved.description,
    schema: userColumnsOf(saved.schema),
    createdAt: saved.createdAt,
    now: options.now.toISOString(),
  });
  await createUserTable(trx, db.dialect, table);
  const rows = saved.rows.map((row) => storedAsItWas(db.dialect.name, table, row));
  if (rows.length > 0) await insertStoredRows(trx, db.dialect, table, rows, options.now);
  await syncIdCounter(trx, db.dialect, table, options.idFloor);
  const next = toTableResponse(table);
  await record(db, trx, caller, table, { type: 'SCHEMA_CREATE', action: 'CREATE', previous: null, next }, options);
  return table;
}
