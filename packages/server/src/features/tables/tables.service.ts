import {
  createTableSchema,
  sameAccess,
  type TableAccess,
  type TableSchema,
  updateTableSchema,
  userColumnsOf,
} from '@basalt/shared';
import type { Db } from '../../db/database.js';
import { userTableName } from '../../db/identifiers.js';
import { syncReferenceIndexes } from '../../db/references.js';
import { touchRowCount } from '../../db/row-counts.js';
import { dropSearchIndexes } from '../../db/text-search/search-index.js';
import { createUserTable, dropUserTable } from '../../db/user-tables.js';
import { ApiError, badRequest, conflict, notFound } from '../../http/errors.js';
import { parseInput } from '../../http/validation.js';
import type { Actor } from '../../lib/actor/actor.js';
import { type Change, journal } from '../journal/journal.js';
import { isLinkedTo } from '../project-access/project-access.js';
import { assertCan, listRecords, type RecordInput, refillRecords } from '../records/records.service.js';
import {
  findTableDefinitionById,
  findTableDefinitionByName,
  listTableDefinitions,
} from '../table-definitions/table-definitions.store.js';
import { applySchemaChange } from './schema-change.js';
import { planSchemaChange } from './schema-plan.js';
import { describePlan } from './schema-plan-text.js';
import { accessOf, checkAccessColumns, renamedAccess, syncOwnerIndex } from './table-access.js';
import { tableCacheOf } from './table-cache.js';
import { type TableDefinition, type TableResponse, toTableResponse } from './table-definition.js';
import { isNameClash, nameTaken, tableNotFound } from './table-errors.js';
import type { TableChangeKind } from './table-events.js';
import { assertNotReferenced, checkReferences } from './table-references.js';
import { applyTableSchema, type TableSchemaChange } from './table-schema-apply.js';
import { deleteTableDefinition, insertTableDefinition, updateTableDefinition } from './tables.store.js';

// Table definitions and their real tables. Every change runs in one transaction (its own, or the scope's it is
// given: history's revert and restore call these same functions) with its history entry (SCHEMA_CREATE /
// SCHEMA_UPDATE / SCHEMA_DELETE) and activity entry, and publishes `table.changed` after the commit, which
// drops the definition from every node's cache (table-cache.ts). A table of another account answers exactly
// like a missing one (404).

export { schemaWithIdColumn, type TableDefinition, type TableResponse, toTableResponse } from './table-definition.js';

/** ChangeOptions name the history change that a revert or restore undoes. */
export interface ChangeOptions {
  revertOf?: number | null;
}

// Stores a definition change in history and announces it to every node once committed.
async function recordTableChange(
  scope: Db,
  actor: Actor,
  table: TableDefinition,
  kind: TableChangeKind,
  change: Omit<Change, 'recordId'>,
  { revertOf = null }: ChangeOptions,
  now: Date,
) {
  await journal(scope, actor, table, [{ ...change, recordId: null }], { now, revertOf });
  scope.publish('table.changed', { accountId: table.accountId, tableId: table.id, kind });
}

const definitionState = (table: TableDefinition) => ({
  name: table.name,
  description: table.description,
  schema: toTableResponse(table).schema,
  access: accessOf(table),
});

/** createTable validates a new table (createTableSchema), creates its definition and real table, and returns it. */
export async function createTable(db: Db, actor: Actor, input: unknown): Promise<TableResponse> {
  const request = parseInput(createTableSchema, input);
  const schema = userColumnsOf(request.schema);
  if (request.access) checkAccessColumns(request.access, { id: 0, schema }, request.name);
  if (await findTableDefinitionByName(db.kysely, actor.accountId, request.name)) throw nameTaken(request.name);
  const now = new Date();
  try {
    const created = await db.transaction(async (scope) => {
      const table = await insertTableDefinition(scope.kysely, {
        accountId: actor.accountId,
        name: request.name,
        description: request.description ?? null,
        schema,
        ...(request.access ? { access: request.access } : {}),
        now: now.toISOString(),
      });
      await createUserTable(scope.kysely, db.dialect, table);
      await syncOwnerIndex(scope.kysely, table.id, null, accessOf(table));
      await checkReferences(scope, actor.accountId, table, null);
      const change = { changeType: 'SCHEMA_CREATE', previousState: null, newState: toTableResponse(table) } as const;
      await recordTableChange(scope, actor, table, 'created', change, {}, now);
      return table;
    });
    return toTableResponse(created);
  } catch (error) {
    throw isNameClash(db, error) ? nameTaken(request.name) : error;
  }
}

/** listTables lists the actor's tables, newest first. */
export async function listTables(db: Db, actor: Actor): Promise<TableResponse[]> {
  return (await listTableDefinitionsOf(db, actor)).map(toTableResponse);
}

/** listTableDefinitionsOf lists the actor's definitions (the data API's many-to-many search reads them). */
export function listTableDefinitionsOf(db: Db, actor: Actor): Promise<TableDefinition[]> {
  return listTableDefinitions(db.kysely, actor.accountId);
}

/**
 * findTableById returns one of the actor's definitions, or null. At the root it comes from this process's cache
 * when it can; in a scope it is read in the transaction, which may have changed it.
 */
export async function findTableById(db: Db, actor: Actor, id: number): Promise<TableDefinition | null> {
  if (!Number.isSafeInteger(id) || id < 1) return null;
  // A project member reaches the owner's table only while it is linked to the member's project.
  if (actor.memberId !== undefined && !(await isLinkedTo(db, actor, id))) return null;
  if (db.inTransaction) return findTableDefinitionById(db.kysely, actor.accountId, id);
  return tableCacheOf(db).byId(actor.accountId, id);
}

/** findTableByName returns one of the actor's definitions by name, ignoring case (cached like findTableById), or null. */
export async function findTableByName(db: Db, actor: Actor, name: string): Promise<TableDefinition | null> {
  if (db.inTransaction) return findTableDefinitionByName(db.kysely, actor.accountId, name);
  return tableCacheOf(db).byName(actor.accountId, name);
}

/**
 * cachedTableByName is findTableByName's answer when this process's cache holds it, without waiting; else null
 * (always inside a transaction, which reads the definition as the transaction sees it).
 */
export function cachedTableByName(db: Db, actor: Actor, name: string): TableDefinition | null {
  return db.inTransaction ? null : (tableCacheOf(db).peekByName(actor.accountId, name) ?? null);
}

/**
 * whenGone turns the records service's "the table changed while the request ran" (409 table_changed) into
 * `gone()` when the table no longer exists: another node dropped it a moment ago, so it is a 404, not a retry.
 * Any other error is returned as it is.
 */
export async function whenGone(db: Db, table: TableDefinition, error: unknown, gone: () => Error): Promise<unknown> {
  if (!(error instanceof ApiError) || error.code !== 'table_changed') return error;
  tableCacheOf(db).forget(table.id);
  return (await findTableDefinitionById(db.kysely, table.accountId, table.id)) ? error : gone();
}

/** getTable returns one of the actor's tables, or throws 404. */
export async function getTable(db: Db, actor: Actor, id: number): Promise<TableResponse> {
  const table = await findTableById(db, actor, id);
  if (!table) throw tableNotFound();
  return toTableResponse(table);
}

/**
 * lockTable reads one of the actor's definitions inside the scope's transaction and locks its real table, so that
 * no write runs against a schema that is about to change; null when the actor has no such table.
 */
export async function lockTable(scope: Db, actor: Actor, id: number): Promise<TableDefinition | null> {
  if (!Number.isSafeInteger(id) || id < 1) return null;
  if (actor.memberId !== undefined && !(await isLinkedTo(scope, actor, id))) return null;
  const found = await findTableDefinitionById(scope.kysely, actor.accountId, id);
  if (!found) return null;
  await scope.dialect.userTables.lockTable(scope.kysely, userTableName(id));
  return (await findTableDefinitionById(scope.kysely, actor.accountId, id)) ?? found;
}

// A table to change: 404 when the actor does not reach it, 403 when its project role may not change schemas.
async function lockOwnTable(scope: Db, actor: Actor, id: number): Promise<TableDefinition> {
  const table = await lockTable(scope, actor, id);
  if (!table) throw tableNotFound();
  assertCan(actor, 'schema', table);
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
export async function updateTable(db: Db, actor: Actor, id: number, input: unknown): Promise<TableResponse> {
  const request = parseInput(updateTableSchema, input);
  if (request.renames && !request.schema) throw badRequest('validation_failed', 'Column renames need the new schema');
  return toTableResponse(await changeTable(db, actor, id, request));
}

/**
 * TableChange is a validated change of a table's name, description, schema (see TableSchemaChange) and/or access
 * rules.
 */
export interface TableChange extends Partial<TableSchemaChange> {
  name?: string | undefined;
  description?: string | null | undefined;
  access?: TableAccess | undefined;
}

// The rules after a change: the ones sent, else the current ones with a renamed owner column followed. They
// must name a text column of the schema the change leaves (400 naming the column otherwise, before any DDL).
function accessAfter(current: TableDefinition, change: TableChange): TableAccess {
  const next = change.access ?? renamedAccess(accessOf(current), change.renames ?? {});
  const schema = change.schema ? userColumnsOf(change.schema) : current.schema;
  if (change.access === undefined && next.ownerColumn && !Object.hasOwn(schema, next.ownerColumn)) {
    throw badRequest(
      'validation_failed',
      `The column "${next.ownerColumn}" is the owner column of the table's access rules: change the rules before you drop it`,
      { fieldErrors: { [next.ownerColumn]: ['This column is the owner column of the access rules'] } },
    );
  }
  checkAccessColumns(next, { id: current.id, schema }, current.name);
  return next;
}

/**
 * changeTable changes one of the actor's tables and records its SCHEMA_UPDATE: both definitions, the renames, and
 * the data of the columns it dropped or retyped (so that the change can be reverted). It returns the table as it
 * now is (unchanged when nothing changed); 404 for a table the actor does not have.
 */
export async function changeTable(
  db: Db,
  actor: Actor,
  id: number,
  change: TableChange,
  options: ChangeOptions = {},
): Promise<TableDefinition> {
  try {
    return await db.transaction(async (scope) => {
      const current = await lockOwnTable(scope, actor, id);
      const renamed = change.name !== undefined && change.name !== current.name;
      if (renamed && change.name && change.name.toLowerCase() !== current.name.toLowerCase()) {
        if (await findTableDefinitionByName(scope.kysely, actor.accountId, change.name)) throw nameTaken(change.name);
        await assertNotReferenced(scope, current, 'renamed');
      }
      const access = accessAfter(current, change);
      const applied = change.schema
        ? await applyTableSchema(scope.kysely, db.dialect, current, {
            schema: change.schema,
            renames: change.renames ?? {},
            columnData: change.columnData ?? {},
          })
        : null;
      const described = change.description !== undefined && (change.description ?? null) !== current.description;
      const ruled = !sameAccess(access, accessOf(current));
      if (!renamed && !described && !applied && !ruled) return current;
      // A SQLite rebuild drops the table's indexes; a new owner column needs its own.
      if (applied || ruled) await syncOwnerIndex(scope.kysely, current.id, accessOf(current), access);
      if (applied) {
        const name = renamed && change.name ? change.name : current.name;
        await checkReferences(scope, actor.accountId, { id: current.id, name, schema: applied.schema }, current.schema);
      }
      const now = new Date();
      const next = await updateTableDefinition(scope.kysely, current.id, {
        ...(renamed ? { name: change.name } : {}),
        ...(described ? { description: change.description ?? null } : {}),
        ...(applied ? { schema: applied.schema } : {}),
        ...(ruled ? { access } : {}),
        now: now.toISOString(),
      });
      // Values may have changed with the schema (a retype, a column's data written back): counts cached for the
      // table's filters are not carried over (db/row-counts.ts).
      await touchRowCount(scope.kysely, current.id);
      const previousState = {
        ...definitionState(current),
        ...(applied && Object.keys(applied.dropped).length > 0 ? { droppedColumns: applied.dropped } : {}),
        ...(applied && Object.keys(applied.retyped).length > 0 ? { retypedColumns: applied.retyped } : {}),
      };
      const newState = { ...definitionState(next), ...(change.renames ? { renames: change.renames } : {}) };
      const entry = { changeType: 'SCHEMA_UPDATE', previousState, newState } as const;
      await recordTableChange(scope, actor, next, 'updated', entry, options, now);
      return next;
    });
  } catch (error) {
    throw isNameClash(db, error) && change.name ? nameTaken(change.name) : error;
  }
}

/**
 * previewTableChange tells what a schema change would do, and whether the rows refuse it, by running it in a
 * transaction that is always rolled back.
 */
export async function previewTableChange(
  db: Db,
  actor: Actor,
  id: number,
  input: unknown,
): Promise<TableChangePreview> {
  const request = parseInput(updateTableSchema, input);
  let preview: TableChangePreview = { changes: [], refusal: null };
  try {
    await db.transaction(async (scope) => {
      const current = await lockOwnTable(scope, actor, id);
      const plan = planSchemaChange(current.schema, request.schema ?? current.schema, request.renames ?? {});
      preview = { changes: describePlan(plan), refusal: null };
      try {
        await applySchemaChange(scope.kysely, db.dialect, current, plan);
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
export async function deleteTable(
  db: Db,
  actor: Actor,
  id: number,
  options: ChangeOptions = {},
): Promise<TableResponse> {
  const deleted = await db.transaction(async (scope) => {
    const table = await lockOwnTable(scope, actor, id);
    await assertNotReferenced(scope, table, 'deleted');
    const rows = await listRecords(scope, actor, table);
    await dropSearchIndexes(scope.kysely, db.dialect.name, table.id, table.schema);
    await dropUserTable(scope.kysely, table.id);
    await deleteTableDefinition(scope.kysely, table.id);
    const previousState = { table: toTableResponse(table), rows };
    const entry = { changeType: 'SCHEMA_DELETE', previousState, newState: null } as const;
    await recordTableChange(scope, actor, table, 'deleted', entry, options, new Date());
    return table;
  });
  return toTableResponse(deleted);
}

/** SavedTable is a dropped table as its SCHEMA_DELETE change keeps it: the definition and every record. */
export interface SavedTable {
  id: number;
  name: string;
  description: string | null;
  /** The user's columns (a system column named here is ignored). */
  schema: TableSchema;
  /** The rules it had (absent in history older than access rules: the default). */
  access?: TableAccess;
  createdAt: string;
  rows: RecordInput[];
}

/**
 * recreateTable brings a dropped table back: the same id, name, description, schema and createdAt, every record
 * with its id and created_at (with their INSERT events), and an id counter past `idFloor` (the largest record id
 * its history names, so that no id is handed out twice). It records SCHEMA_CREATE; 409 when the account has
 * another table of that name now.
 */
export async function recreateTable(
  db: Db,
  actor: Actor,
  saved: SavedTable,
  options: ChangeOptions & { idFloor: number },
): Promise<TableDefinition> {
  return db.transaction(async (scope) => {
    if (await findTableDefinitionByName(scope.kysely, actor.accountId, saved.name)) throw nameTaken(saved.name);
    const now = new Date();
    const table = await insertTableDefinition(scope.kysely, {
      id: saved.id,
      accountId: actor.accountId,
      name: saved.name,
      description: saved.description,
      schema: userColumnsOf(saved.schema),
      ...(saved.access ? { access: saved.access } : {}),
      createdAt: saved.createdAt,
      now: now.toISOString(),
    });
    await createUserTable(scope.kysely, db.dialect, table);
    await syncOwnerIndex(scope.kysely, table.id, null, accessOf(table));
    await syncReferenceIndexes(scope.kysely, table.id, table.schema);
    await db.dialect.userTables.syncIdSequence(scope.kysely, userTableName(table.id), options.idFloor);
    await refillRecords(scope, actor, table, saved.rows);
    const entry = { changeType: 'SCHEMA_CREATE', previousState: null, newState: toTableResponse(table) } as const;
    await recordTableChange(scope, actor, table, 'created', entry, options, now);
    return table;
  });
}
