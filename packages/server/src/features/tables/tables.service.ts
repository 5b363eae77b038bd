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
import { toRecordRow } from '../records/record-values.js';
import { selectRows } from '../records/records.store.js';
import { applySchemaChange, type DroppedColumnData } from './schema-change.js';
import { describePlan, planSchemaChange } from './schema-plan.js';
import { tableCacheOf } from './table-cache.js';
import { type TableDefinition, type TableResponse, toTableResponse } from './table-definition.js';
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
// caller's account, and another account's table answers exactly like a missing one (404).

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

async function record(
  db: Db,
  trx: Trx,
  caller: TableCaller,
  table: TableDefinition,
  change: { type: ChangeType; action: ActivityAction; previous: unknown; next: unknown },
  now: Date,
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
        now,
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

// Reads the definition inside the transaction and locks its real table, so that no write runs against a
// schema that is about to change.
async function lockOwnTable(trx: Trx, db: Db, caller: TableCaller, id: number): Promise<TableDefinition> {
  if (!Number.isSafeInteger(id) || id < 1) throw tableNotFound();
  const found = await findTableDefinitionById(trx, caller.accountId, id);
  if (!found) throw tableNotFound();
  await db.dialect.userTables.lockTable(trx, userTableName(id));
  return (await findTableDefinitionById(trx, caller.accountId, id)) ?? found;
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
    updated = await db.transaction(async (trx) => {
      const current = await lockOwnTable(trx, db, caller, id);
      const renamed = request.name !== undefined && request.name !== current.name;
      if (renamed && request.name && request.name.toLowerCase() !== current.name.toLowerCase()) {
        if (await findTableDefinitionByName(trx, caller.accountId, request.name)) throw nameTaken(request.name);
      }
      let schema: TableSchema | undefined;
      let dropped: DroppedColumnData = {};
      if (request.schema) {
        const plan = planSchemaChange(current.schema, request.schema, request.renames ?? {});
        if (plan.steps.length > 0) ({ schema, dropped } = await applySchemaChange(trx, db.dialect, current, plan));
      }
      const described = request.description !== undefined && (request.description ?? null) !== current.description;
      if (!renamed && !described && !schema) return current;
      const next = await updateTableDefinition(trx, id, {
        ...(renamed ? { name: request.name } : {}),
        ...(described ? { description: request.description ?? null } : {}),
        ...(schema ? { schema } : {}),
        now: now.toISOString(),
      });
      const previous = {
        ...definitionState(current),
        ...(Object.keys(dropped).length > 0 ? { droppedColumns: dropped } : {}),
      };
      const nextState = { ...definitionState(next), ...(request.renames ? { renames: request.renames } : {}) };
      await record(db, trx, caller, next, { type: 'SCHEMA_UPDATE', action: 'UPDATE', previous, next: nextState }, now);
      return next;
    });
  } catch (error) {
    tableCacheOf(db).evict(id);
    throw isNameClash(db, error) && request.name ? nameTaken(request.name) : error;
  }
  tableCacheOf(db).remember(updated);
  return toTableResponse(updated);
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
      const rows = (await selectRows(trx, db.dialect, table, {})).map((raw) =>
        toRecordRow(db.dialect.name, table, raw),
      );
      await dropUserTable(trx, table.id);
      await deleteTableDefinition(trx, table.id);
      await record(
        db,
        trx,
        caller,
        table,
        { type: 'SCHEMA_DELETE', action: 'DELETE', previous: { table: toTableResponse(table), rows }, next: null },
        now,
      );
      return table;
    });
  } finally {
    tableCacheOf(db).evict(id);
  }
  return toTableResponse(deleted);
}
