import { isDeepStrictEqual } from 'node:util';
import {
  DEFAULT_TABLE_ACCESS,
  normalizeAccess,
  sameAccess,
  type TableAccess,
  type TableSchema,
  userColumnsOf,
} from '@basalt/shared';
import { ApiError } from '../../http/errors.js';
import { type ConflictReason, RevertConflict } from '../journal/revert-conflict.js';
import type { RecordRow } from '../records/records.service.js';
import type { TableDefinition } from '../tables/tables.service.js';

export { type ConflictReason, RevertConflict };

// What stops a revert: a later change that the revert would silently undo or cannot live with. A revert
// compares the change's saved state with the table as it is now (not the list of later changes), so a change
// that was made and reverted again does not block anything, and restoring, which reverts newest first, always
// finds each change's state in place. Every refusal is a 409 that says what conflicts; nothing is written.

/** revertRefused is the 409 of POST /api/history/:id/revert for a conflict. */
export function revertRefused(changeId: number, conflict: RevertConflict): ApiError {
  return new ApiError(409, 'revert_conflict', `Cannot revert this change: ${conflict.problem}`, {
    details: { reason: conflict.reason, changeId },
  });
}

/** restoreRefused is the 409 of a restore that met a change it cannot revert (or another request at once). */
export function restoreRefused(conflict: RevertConflict, change?: { id: number; change_type: string }): ApiError {
  const changeId = change ? Number(change.id) : null;
  const what = change ? `change #${changeId} (${change.change_type}) cannot be reverted: ` : '';
  return new ApiError(409, 'restore_conflict', `Cannot restore this version: ${what}${conflict.problem}`, {
    details: { reason: conflict.reason, changeId },
  });
}

const SYSTEM_COLUMNS = new Set(['id', 'created_at', 'updated_at']);

/** StateObject is a saved state read back from history: a record, or a table's definition. */
export type StateObject = Record<string, unknown>;

/** stateObject reads a change's saved state as an object, or refuses the revert when it is not one. */
export function stateObject(state: unknown): StateObject {
  if (typeof state !== 'object' || state === null || Array.isArray(state)) {
    throw new RevertConflict('state_unreadable', 'the saved state of this change cannot be read');
  }
  return state as StateObject;
}

/** userValues are a saved record's values of user columns (no id, created_at, updated_at). */
export function userValues(record: StateObject): StateObject {
  return Object.fromEntries(Object.entries(record).filter(([column]) => !SYSTEM_COLUMNS.has(column)));
}

// JSON round trip: a value read from the table compares with one read from history (-0 is 0 in JSON; jsonb
// may order object keys otherwise, which isDeepStrictEqual ignores).
const asJson = (value: unknown): unknown => JSON.parse(JSON.stringify(value ?? null));

/** sameValue compares two column values as JSON. */
export function sameValue(a: unknown, b: unknown): boolean {
  return isDeepStrictEqual(asJson(a), asJson(b));
}

const quoted = (names: string[]) => names.map((name) => `"${name}"`).join(', ');

/** assertColumnsExist refuses values for columns the table no longer has. */
export function assertColumnsExist(table: TableDefinition, values: StateObject): void {
  const missing = Object.keys(values).filter((column) => !Object.hasOwn(table.schema, column));
  if (missing.length === 0) return;
  const what =
    missing.length === 1 ? `column ${quoted(missing)} no longer exists` : `columns ${quoted(missing)} no longer exist`;
  throw new RevertConflict('column_missing', `${what} in "${table.name}"`);
}

/**
 * assertRecordAsSaved refuses when one of `columns` of the record differs now from the saved record, or,
 * with `wholeRecord`, when any value does (a column added since counts only when it holds a value).
 */
export function assertRecordAsSaved(
  table: TableDefinition,
  current: RecordRow,
  saved: StateObject,
  columns: string[],
  wholeRecord = false,
): void {
  const gone = columns.filter((column) => !Object.hasOwn(current, column) && saved[column] != null);
  if (gone.length > 0) assertColumnsExist(table, Object.fromEntries(gone.map((column) => [column, saved[column]])));
  const changed = columns.filter((column) => !sameValue(current[column], saved[column]));
  if (wholeRecord) {
    for (const [column, value] of Object.entries(userValues(current))) {
      if (!Object.hasOwn(saved, column) && value !== null) changed.push(column);
    }
  }
  if (changed.length === 0) return;
  throw new RevertConflict(
    'record_changed',
    `record ${current.id} of "${table.name}" was changed after this change (${quoted(changed)})`,
  );
}

/** sameRecords tells whether two lists of records hold the same ids and user values. */
export function sameRecords(a: RecordRow[], b: StateObject[]): boolean {
  if (a.length !== b.length) return false;
  const saved = new Map(b.map((record) => [Number(record.id), record]));
  return a.every((record) => {
    const other = saved.get(record.id);
    return other !== undefined && sameValue(userValues(record), userValues(other));
  });
}

function schemaDifferences(now: TableSchema, saved: TableSchema): string[] {
  const problems: string[] = [];
  for (const [column, definition] of Object.entries(saved)) {
    const current = now[column];
    if (!current) problems.push(`column "${column}" no longer exists`);
    else if (!isDeepStrictEqual({ ...current }, { ...definition })) problems.push(`column "${column}" was changed`);
  }
  for (const column of Object.keys(now))
    if (!Object.hasOwn(saved, column)) problems.push(`column "${column}" was added`);
  return problems;
}

/** SavedDefinition is a table's definition as a schema change saved it. */
export interface SavedDefinition {
  name: string;
  description: string | null;
  /** The user's columns (the id system column removed). */
  schema: TableSchema;
  /** The access rules; absent in changes saved before tables had them. */
  access?: TableAccess;
}

/** savedDefinition reads the definition part of a saved SCHEMA_* state. */
export function savedDefinition(state: StateObject): SavedDefinition {
  const { name, description, schema, access } = state;
  if (typeof name !== 'string' || typeof schema !== 'object' || schema === null) {
    throw new RevertConflict('state_unreadable', 'the saved table definition of this change cannot be read');
  }
  return {
    name,
    description: typeof description === 'string' ? description : null,
    schema: userColumnsOf(schema as TableSchema),
    ...(access === undefined ? {} : { access: normalizeAccess(access) }),
  };
}

/**
 * assertDefinitionAsSaved refuses when a part of the table (name, description, columns) differs now from the
 * saved definition; `parts` are the parts to compare (those the reverted change touched).
 */
export function assertDefinitionAsSaved(
  table: TableDefinition,
  saved: SavedDefinition,
  parts: { name: boolean; description: boolean; schema: boolean; access?: boolean },
): void {
  const problems: string[] = [];
  if (parts.access && !sameAccess(table.access ?? DEFAULT_TABLE_ACCESS, saved.access ?? DEFAULT_TABLE_ACCESS)) {
    problems.push('its access rules were changed');
  }
  if (parts.name && table.name !== saved.name) problems.push(`it was renamed to "${table.name}"`);
  if (parts.description && table.description !== saved.description) problems.push('its description was changed');
  if (parts.schema) problems.push(...schemaDifferences(table.schema, saved.schema));
  if (problems.length === 0) return;
  throw new RevertConflict(
    'table_changed',
    `the table "${saved.name}" was changed after this change (${problems.join('; ')}); revert the later changes first, or restore this version`,
  );
}
