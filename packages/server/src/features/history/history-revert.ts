import { sameAccess } from '@basalt/shared';
import type { Db } from '../../db/database.js';
import { ApiError } from '../../http/errors.js';
import type { Actor } from '../../lib/actor/actor.js';
import {
  deleteRecords,
  listRecords,
  lockRecord,
  type RecordInput,
  type RecordRow,
  recordIdCondition,
  restoreRecords,
  updateRecords,
} from '../records/records.service.js';
import { FUNCTION_REVERTS } from '../sql-functions/sql-functions-reverts.js';
import { changeTable, deleteTable, lockTable, recreateTable, type TableDefinition } from '../tables/tables.service.js';
import { parseState } from './history.service.js';
import { type ChangeRow, findChangeById, maxRecordId } from './history.store.js';
import { changesBeneath } from './history-cascades.js';
import {
  assertColumnsExist,
  assertDefinitionAsSaved,
  assertRecordAsSaved,
  RevertConflict,
  type StateObject,
  sameRecords,
  sameValue,
  savedDefinition,
  stateObject,
  userValues,
} from './history-conflicts.js';

// How each kind of change is undone, inside the scope of a transaction the caller owns
// (history-actions.service.ts). Every revert calls the ordinary records and tables functions with that scope, so
// it is validated, recorded (with revert_of set) and announced like any change, and can itself be reverted:
//   RECORD_CREATE → delete the record          RECORD_DELETE → insert it again, same id and created_at
//   RECORD_UPDATE → put the changed values back
//   SCHEMA_CREATE → drop the table (only while it is as it was created: no record or column changed since)
//   SCHEMA_UPDATE → the inverse schema change, with the dropped or retyped columns' saved data written back
//   SCHEMA_DELETE → create the table again: same id, definition and records
// A record delete that cascaded brings back what its references' rules took with it (history-cascades.ts).
// A later change that conflicts throws RevertConflict (history-conflicts.ts).

/** RevertScope is what reverts share: the scope of their one transaction, and who acts. */
export interface RevertScope {
  db: Db;
  actor: Actor;
}

/** ChangeNote is what a revert tells history beyond the change itself: the change it reverts. */
interface ChangeNote {
  revertOf: number;
}

async function tableOf(scope: RevertScope, change: ChangeRow): Promise<TableDefinition> {
  const tableId = Number(change.table_id);
  const table = await lockTable(scope.db, scope.actor, tableId);
  if (!table) {
    throw new RevertConflict(
      'table_deleted',
      `the table "${change.table_name}" was deleted after this change; restore it first`,
    );
  }
  return table;
}

function recordIdOf(change: ChangeRow): number {
  if (change.record_id === null) throw new RevertConflict('state_unreadable', 'this change names no record');
  return Number(change.record_id);
}

// A write the records service refuses (a unique value taken, a value now required or of another type) is a
// conflict with what changed since; anything else is unexpected and passes through.
async function asConflict<T>(table: TableDefinition, values: StateObject, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (!(error instanceof ApiError) || error.status >= 500) throw error;
    const column = Object.keys(error.details.fieldErrors ?? {})[0] ?? '';
    if (error.code === '23505') {
      const value = JSON.stringify(values[column] ?? null);
      throw new RevertConflict(
        'unique_taken',
        `the value ${value} of "${column}" is now used by another record of "${table.name}"`,
      );
    }
    if (error.code === '23502') {
      throw new RevertConflict(
        'value_required',
        `"${column}" of "${table.name}" is now required and the record had no value`,
      );
    }
    throw new RevertConflict('value_invalid', error.message);
  }
}

async function revertRecordCreate(scope: RevertScope, change: ChangeRow, note: ChangeNote): Promise<void> {
  const table = await tableOf(scope, change);
  const id = recordIdOf(change);
  const saved = stateObject(parseState(change.new_state));
  const current = await lockRecord(scope.db, scope.actor, table, id);
  if (!current)
    throw new RevertConflict('record_deleted', `record ${id} of "${table.name}" was deleted after this change`);
  assertRecordAsSaved(table, current, saved, Object.keys(userValues(saved)), true);
  await deleteRecords(scope.db, scope.actor, table, recordIdCondition(id), note);
}

async function revertRecordUpdate(scope: RevertScope, change: ChangeRow, note: ChangeNote): Promise<void> {
  const table = await tableOf(scope, change);
  const id = recordIdOf(change);
  const before = userValues(stateObject(parseState(change.previous_state)));
  const after = userValues(stateObject(parseState(change.new_state)));
  // Only the columns this change changed are put back, and only they must be as it left them.
  const changed = Object.keys(after).filter((column) => !sameValue(before[column], after[column]));
  const patch: RecordInput = Object.fromEntries(changed.map((column) => [column, before[column] ?? null]));
  const current = await lockRecord(scope.db, scope.actor, table, id);
  if (!current)
    throw new RevertConflict('record_deleted', `record ${id} of "${table.name}" was deleted after this change`);
  assertColumnsExist(table, patch);
  assertRecordAsSaved(table, current, after, changed);
  await asConflict(table, patch, () => updateRecords(scope.db, scope.actor, table, recordIdCondition(id), patch, note));
}

async function revertRecordDelete(scope: RevertScope, change: ChangeRow, note: ChangeNote): Promise<void> {
  const table = await tableOf(scope, change);
  const id = recordIdOf(change);
  const saved = stateObject(parseState(change.previous_state));
  if (await lockRecord(scope.db, scope.actor, table, id)) {
    throw new RevertConflict('record_exists', `a record with id ${id} exists again in "${table.name}"`);
  }
  assertColumnsExist(table, userValues(saved));
  await asConflict(table, saved, () => restoreRecords(scope.db, scope.actor, table, [{ ...saved, id }], note));
}

// The records a table was created with: none, or, for a table brought back by a revert, those its SCHEMA_DELETE
// kept (null when retention has removed that change: then only an empty table is known to be unchanged).
async function recordsAtCreation(scope: RevertScope, change: ChangeRow): Promise<StateObject[] | null> {
  if (change.revert_of === null) return [];
  const deletion = await findChangeById(scope.db.kysely, scope.actor.accountId, Number(change.revert_of));
  if (deletion?.change_type !== 'SCHEMA_DELETE') return null;
  const rows = stateObject(parseState(deletion.previous_state)).rows;
  return Array.isArray(rows) ? rows.map(stateObject) : null;
}

async function revertSchemaCreate(scope: RevertScope, change: ChangeRow, note: ChangeNote): Promise<void> {
  const table = await tableOf(scope, change);
  const created = savedDefinition(stateObject(parseState(change.new_state)));
  assertDefinitionAsSaved(table, created, { name: true, description: true, schema: true });
  const rows: RecordRow[] = await listRecords(scope.db, scope.actor, table);
  const initial = await recordsAtCreation(scope, change);
  if (initial === null ? rows.length > 0 : !sameRecords(rows, initial)) {
    throw new RevertConflict(
      'table_changed',
      `records of "${table.name}" were added, changed or deleted after it was created; restore the version of its creation first`,
    );
  }
  await deleteTable(scope.db, scope.actor, table.id, note);
}

function invertRenames(renames: unknown): Record<string, string> {
  if (typeof renames !== 'object' || renames === null) return {};
  return Object.fromEntries(
    Object.entries(renames as Record<string, unknown>).flatMap(([from, to]) =>
      typeof to === 'string' ? [[to, from]] : [],
    ),
  );
}

function columnDataOf(state: StateObject): Record<string, Record<string, unknown>> {
  const data: Record<string, Record<string, unknown>> = {};
  for (const key of ['droppedColumns', 'retypedColumns']) {
    const saved = state[key];
    if (typeof saved !== 'object' || saved === null) continue;
    for (const [column, values] of Object.entries(saved)) {
      if (typeof values === 'object' && values !== null) data[column] = values as Record<string, unknown>;
    }
  }
  return data;
}

// A schema refusal (409: rows that break a restored flag; a name taken) or an impossible plan (400) met by
// the inverse change is a conflict with what changed since.
async function schemaConflict<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (error instanceof ApiError && (error.status === 400 || error.status === 409)) {
      throw new RevertConflict(error.code === 'table_exists' ? 'table_exists' : 'schema_refused', error.message);
    }
    throw error;
  }
}

async function revertSchemaUpdate(scope: RevertScope, change: ChangeRow, note: ChangeNote): Promise<void> {
  const table = await tableOf(scope, change);
  const beforeState = stateObject(parseState(change.previous_state));
  const afterState = stateObject(parseState(change.new_state));
  const before = savedDefinition(beforeState);
  const after = savedDefinition(afterState);
  // Only the parts this change changed are put back, and only they must be as it left them.
  const parts = {
    name: before.name !== after.name,
    description: before.description !== after.description,
    schema:
      !sameValue(before.schema, after.schema) || Object.keys(before.schema).join() !== Object.keys(after.schema).join(),
    // Rules are in changes saved since tables have them; a change without them changed none.
    access: before.access !== undefined && after.access !== undefined && !sameAccess(before.access, after.access),
  };
  assertDefinitionAsSaved(table, after, parts);
  await schemaConflict(() =>
    changeTable(
      scope.db,
      scope.actor,
      table.id,
      {
        ...(parts.name ? { name: before.name } : {}),
        ...(parts.description ? { description: before.description } : {}),
        ...(parts.schema
          ? { schema: before.schema, renames: invertRenames(afterState.renames), columnData: columnDataOf(beforeState) }
          : {}),
        ...(parts.access ? { access: before.access } : {}),
      },
      note,
    ),
  );
}

async function revertSchemaDelete(scope: RevertScope, change: ChangeRow, note: ChangeNote): Promise<void> {
  const tableId = Number(change.table_id);
  if (await lockTable(scope.db, scope.actor, tableId)) {
    throw new RevertConflict('table_exists', `the table "${change.table_name}" exists again`);
  }
  const saved = stateObject(parseState(change.previous_state));
  const definition = stateObject(saved.table);
  const rows = Array.isArray(saved.rows) ? saved.rows.map(stateObject) : [];
  const idFloor = await maxRecordId(scope.db.kysely, scope.actor.accountId, tableId);
  const createdAt = typeof definition.createdAt === 'string' ? definition.createdAt : change.created_at;
  await schemaConflict(() =>
    recreateTable(
      scope.db,
      scope.actor,
      { ...savedDefinition(definition), id: tableId, createdAt, rows },
      { revertOf: note.revertOf, idFloor },
    ),
  );
}

const REVERTS: Record<string, (scope: RevertScope, change: ChangeRow, note: ChangeNote) => Promise<void>> = {
  RECORD_CREATE: revertRecordCreate,
  RECORD_UPDATE: revertRecordUpdate,
  RECORD_DELETE: revertRecordDelete,
  SCHEMA_CREATE: revertSchemaCreate,
  SCHEMA_UPDATE: revertSchemaUpdate,
  SCHEMA_DELETE: revertSchemaDelete,
  // SQL functions' definitions (features/sql-functions).
  ...FUNCTION_REVERTS,
};

function revertOne(scope: RevertScope, change: ChangeRow): Promise<void> {
  const revert = REVERTS[change.change_type];
  if (!revert) throw new RevertConflict('state_unreadable', `changes of type ${change.change_type} cannot be reverted`);
  return revert(scope, change, { revertOf: Number(change.id) });
}

/**
 * revertIn undoes one change inside the scope's transaction and records the revert, or throws RevertConflict. A
 * record delete that cascaded is reverted with the entries beneath it newer than change `after` (a restore's
 * point), parent first; it returns the ids of every change it reverted.
 */
export async function revertIn(scope: RevertScope, change: ChangeRow, { after = 0 } = {}): Promise<number[]> {
  await revertOne(scope, change);
  const beneath = await changesBeneath(scope, change, after);
  for (const entry of beneath) await revertOne(scope, entry);
  return [Number(change.id), ...beneath.map((entry) => Number(entry.id))];
}
