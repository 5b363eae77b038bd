import { dateType } from '../../db/column-types/date.js';
import type { Db } from '../../db/database.js';
import type { DialectName } from '../../db/dialect/dialect.js';
import type { Condition } from '../../db/user-conditions.js';
import type { TableDefinition } from '../../db/user-tables.js';
import { ApiError } from '../../http/errors.js';
import type { Actor } from '../../lib/actor/actor.js';
import { assertCan } from './record-access.js';
import { checkCondition, recordIdCondition } from './record-conditions.js';
import { unknownColumn } from './record-errors.js';
import { insertStoredRows, upsertStoredRows } from './record-inserts.js';
import { applyDeleteRules, cascadeMark, checkReferencedRows, type ReferringWrites } from './record-references.js';
import { admits, checkOwnedPatch, ownedInputs, rlsViolation, rowRuleOf, withRules } from './record-rules.js';
import { type RecordInput, type RecordRow, storedInputRow, toRecordRow } from './record-values.js';
import { createInOneStatement, logChange, runWrite, translated, type WriteOptions } from './record-writes.js';
import { deleteRowsById, type StoredRow, selectRowsForChange, updateRowsById } from './records.store.js';

// THE path of every record write, whichever API or feature it comes from (history's revert and restore, a table
// brought back, the record APIs): validate against the table's schema, write the rows, and in the same
// transaction one change_history row per record and one activity entry per kind of change (record-writes.ts);
// the change event goes on the bus after the commit. A failure anywhere rolls all of it back. Every function
// takes a Db (the root, or a scope whose transaction it joins) and the actor. The reads are in
// record-reads.ts; both are exported from here, the records service's one door.

export type { Condition, OrderTerm } from '../../db/user-conditions.js';
export { assertCan } from './record-access.js';
export { recordIdCondition } from './record-conditions.js';
export type { RecordChange, RecordsChanged } from './record-events.js';
export { type CountKind, countRecords, getRecord, listRecords, type ReadOptions } from './record-reads.js';
export { assertVisible, isLimited } from './record-rules.js';
export type { RecordInput, RecordRow } from './record-values.js';
export type { WriteOptions } from './record-writes.js';

/** CreateOptions add PostgREST's `columns`: only these keys are inserted, a row lacking one gets NULL. */
export interface CreateOptions extends WriteOptions {
  columns?: string[];
}

/**
 * UpsertOptions resolve conflicts on `onConflict` (default id): a column, or columns (PostgREST's
 * `on_conflict=a,b`) of which id or a unique column decides; see record-inserts.ts.
 */
export interface UpsertOptions extends CreateOptions {
  onConflict?: string | readonly string[];
  /** Keep the existing row on conflict (and return only inserted rows); default: merge the sent columns. */
  ignoreDuplicates?: boolean;
}

// The server sets created_at and updated_at: named in `columns=`, they are ignored like the body's values.
const SERVER_COLUMNS = new Set(['created_at', 'updated_at']);

function projectInputs(table: TableDefinition, inputs: RecordInput[], listed: string[] | undefined): unknown[] {
  if (!listed) return inputs;
  const columns = listed.filter((column) => !SERVER_COLUMNS.has(column));
  for (const column of columns) {
    if (column !== 'id' && !Object.hasOwn(table.schema, column)) throw unknownColumn(table, column);
  }
  return inputs.map((input) =>
    typeof input === 'object' && input !== null && !Array.isArray(input)
      ? Object.fromEntries(columns.map((c) => [c, Object.hasOwn(input, c) ? input[c] : null]))
      : input,
  );
}

/** createRecords inserts one or more records (one statement per chunk) and returns them as stored. */
export async function createRecords(
  db: Db,
  actor: Actor,
  table: TableDefinition,
  inputs: RecordInput[],
  options: CreateOptions = {},
): Promise<RecordRow[]> {
  const from = options.from ?? 'json';
  const rows = ownedInputs(actor, table, projectInputs(table, inputs, options.columns)).map((input) =>
    storedInputRow(db.dialect.name, table, input, { from, mode: 'create' }),
  );
  if (rows.length === 0) return [];
  if (rows.length === 1) {
    const created = await createInOneStatement(db, actor, table, rows[0] as StoredRow, options);
    if (created !== null) return [created];
  }
  return runWrite(db, actor, table, options, rows, async (scope, log, now) => {
    await checkReferencedRows(scope, table, rows);
    const written = (await insertStoredRows(scope, table, rows, now)).map((raw) =>
      toRecordRow(db.dialect.name, table, raw),
    );
    for (const row of written) logChange(log, 'RECORD_CREATE', null, row);
    return written;
  });
}

/** createRecord inserts one record. */
export async function createRecord(
  db: Db,
  actor: Actor,
  table: TableDefinition,
  input: RecordInput,
  options: CreateOptions = {},
): Promise<RecordRow> {
  const [row] = await createRecords(db, actor, table, [input], options);
  if (!row) throw new Error('createRecord: the insert returned no row');
  return row;
}

/** UpsertOutcome is what an upsert wrote: every returned row, and how many of them are new records. */
export interface UpsertOutcome {
  rows: RecordRow[];
  inserted: number;
}

/**
 * upsertRecords inserts records, resolving a conflict on `onConflict` by merging the sent columns into the
 * existing record (RECORD_UPDATE) or, with ignoreDuplicates, keeping it (nothing recorded, not returned).
 */
export async function upsertRecords(
  db: Db,
  actor: Actor,
  table: TableDefinition,
  inputs: RecordInput[],
  options: UpsertOptions = {},
): Promise<RecordRow[]> {
  return (await upsertRecordsWithOutcome(db, actor, table, inputs, options)).rows;
}

// On PostgreSQL, upserts of one new row that arrive together can meet each other's uncommitted row on a unique
// index other than the one resolving the conflict, which fails the statement and its transaction. Run again, the
// other row is committed and the upsert merges into it, as it would have had it come a moment later.
const UPSERT_ATTEMPTS = 3;

/** upsertRecordsWithOutcome is upsertRecords that also tells how many rows were inserted rather than updated. */
export async function upsertRecordsWithOutcome(
  db: Db,
  actor: Actor,
  table: TableDefinition,
  inputs: RecordInput[],
  options: UpsertOptions = {},
): Promise<UpsertOutcome> {
  const retryable = db.dialect.name === 'postgres' && !db.inTransaction && !options.ignoreDuplicates;
  for (let attempt = 1; ; attempt++) {
    try {
      return await upsertOnce(db, actor, table, inputs, options);
    } catch (error) {
      const raced = error instanceof ApiError && error.code === '23505';
      if (!retryable || !raced || attempt >= UPSERT_ATTEMPTS) throw error;
    }
  }
}

// The columns an upsert's records name (after ?columns= and the owner column): what a conflict may overwrite.
function sentColumnsOf(inputs: unknown[]): Set<string> {
  return new Set(inputs.flatMap((input) => (typeof input === 'object' && input !== null ? Object.keys(input) : [])));
}

async function upsertOnce(
  db: Db,
  actor: Actor,
  table: TableDefinition,
  inputs: RecordInput[],
  options: UpsertOptions,
): Promise<UpsertOutcome> {
  const from = options.from ?? 'json';
  const prepared = ownedInputs(actor, table, projectInputs(table, inputs, options.columns));
  const rows = prepared.map((input) => storedInputRow(db.dialect.name, table, input, { from, mode: 'create' }));
  if (rows.length === 0) return { rows: [], inserted: 0 };
  // A conflict updates an existing row: the update (and select) rules must admit it, as PostgreSQL's USING does.
  const mayUpdate = [rowRuleOf(actor, table, 'update'), rowRuleOf(actor, table, 'select')];
  let inserted = 0;
  const written = await runWrite(db, actor, table, options, rows, async (scope, log, now) => {
    await checkReferencedRows(scope, table, rows);
    const { written, previous } = await upsertStoredRows(scope, table, rows, now, {
      onConflict: typeof options.onConflict === 'string' ? [options.onConflict] : (options.onConflict ?? ['id']),
      ignoreDuplicates: options.ignoreDuplicates ?? false,
      sentColumns: sentColumnsOf(prepared),
    });
    const before = new Map(previous.map((raw) => [Number(raw.id), toRecordRow(db.dialect.name, table, raw)]));
    if (!options.ignoreDuplicates && [...before.values()].some((row) => !mayUpdate.every((r) => admits(r, row)))) {
      throw rlsViolation(actor, table);
    }
    const result = written.map((raw) => toRecordRow(db.dialect.name, table, raw));
    inserted = 0;
    for (const row of result) {
      const old = before.get(row.id) ?? null;
      if (!old) inserted++;
      logChange(log, old ? 'RECORD_UPDATE' : 'RECORD_CREATE', old, row);
    }
    return result;
  });
  return { rows: written, inserted };
}

/** updateRecords sets the patch's columns on every record the condition selects and returns them, by id. */
export async function updateRecords(
  db: Db,
  actor: Actor,
  table: TableDefinition,
  where: Condition | undefined,
  patch: RecordInput,
  options: WriteOptions = {},
): Promise<RecordRow[]> {
  checkOwnedPatch(actor, table, patch);
  const checked = withRules(
    where ? checkCondition(db.dialect, table, where) : undefined,
    rowRuleOf(actor, table, 'update'),
    rowRuleOf(actor, table, 'select'),
  );
  const values = storedInputRow(db.dialect.name, table, patch, { from: options.from ?? 'json', mode: 'update' });
  if (Object.keys(values).length === 0) return runWrite(db, actor, table, options, [], async () => []);
  return runWrite(db, actor, table, options, [values], async (scope, log, now) => {
    const previous = await selectRowsForChange(scope.run, db.dialect, table, checked);
    if (previous.length === 0) return [];
    await checkReferencedRows(scope, table, [values]);
    const stored = { ...values, updated_at: now.toISOString() };
    const updated = await updateRowsById(
      scope.run,
      db.dialect,
      table,
      previous.map((raw) => Number(raw.id)),
      stored,
    );
    const before = new Map(previous.map((raw) => [Number(raw.id), toRecordRow(db.dialect.name, table, raw)]));
    const result = byId(updated.map((raw) => toRecordRow(db.dialect.name, table, raw)));
    for (const row of result) {
      logChange(log, 'RECORD_UPDATE', before.get(row.id) ?? null, row, cascadeMark(options.cascade, null, row.id));
    }
    return result;
  });
}

/** deleteRecords deletes every record the condition selects and returns them as they were, by id. */
export async function deleteRecords(
  db: Db,
  actor: Actor,
  table: TableDefinition,
  where: Condition | undefined,
  options: Omit<WriteOptions, 'from'> = {},
): Promise<RecordRow[]> {
  const checked = withRules(
    where ? checkCondition(db.dialect, table, where) : undefined,
    rowRuleOf(actor, table, 'delete'),
    rowRuleOf(actor, table, 'select'),
  );
  return runWrite(db, actor, table, options, [], async (scope, log) => {
    const previous = await selectRowsForChange(scope.run, db.dialect, table, checked);
    if (previous.length === 0) return [];
    const ids = previous.map((raw) => Number(raw.id));
    // The rows the rules take are recorded first; this delete's own entries join their group (history-cascades.ts).
    const group = await applyDeleteRules(scope, actor, table, ids, REFERRING_WRITES, options.cascade?.group);
    const deleted = await deleteRowsById(scope.run, db.dialect, table, ids);
    const result = byId(deleted.map((raw) => toRecordRow(db.dialect.name, table, raw)));
    for (const row of result) logChange(log, 'RECORD_DELETE', row, null, cascadeMark(options.cascade, group, row.id));
    return result;
  });
}

// What a referring column's on-delete rule does, through this same path (record-references.ts).
const REFERRING_WRITES: ReferringWrites = {
  deleteWhere: (scope, actor, table, where, cascade) => deleteRecords(scope, actor, table, where, { cascade }),
  nullWhere: (scope, actor, table, where, column, cascade) =>
    updateRecords(scope, actor, table, where, { [column]: null }, { cascade }),
};

function byId(rows: RecordRow[]): RecordRow[] {
  return rows.sort((a, b) => a.id - b.id);
}

const JSON_CREATE = { from: 'json', mode: 'create' } as const;

/**
 * storedAsItWas validates a record saved in history for inserting it again: its id, its values and its
 * created_at (updated_at becomes the time of the insert).
 */
function storedAsItWas(dialect: DialectName, table: TableDefinition, record: RecordInput): StoredRow {
  const stored = storedInputRow(dialect, table, record, JSON_CREATE);
  const createdAt = typeof record.created_at === 'string' ? dateType.parseInput(record.created_at, JSON_CREATE) : null;
  if (createdAt?.ok && createdAt.value !== null) stored.created_at = dateType.toStorage(createdAt.value, dialect);
  return stored;
}

async function insertAsTheyWere(
  db: Db,
  actor: Actor,
  table: TableDefinition,
  saved: RecordInput[],
  options: WriteOptions & { journaled: boolean },
): Promise<RecordRow[]> {
  const rows = saved.map((record) => storedAsItWas(db.dialect.name, table, record));
  if (rows.length === 0) return [];
  return runWrite(db, actor, table, options, rows, async (scope, log, now) => {
    // A record brought back may point only at rows that exist (its parent's delete is reverted first).
    if (options.journaled) await checkReferencedRows(scope, table, rows);
    const written = (await insertStoredRows(scope, table, rows, now)).map((raw) =>
      toRecordRow(db.dialect.name, table, raw),
    );
    for (const row of written) logChange(log, 'RECORD_CREATE', null, row);
    return written;
  });
}

/**
 * restoreRecords inserts records saved in history again, each with its id and created_at (RECORD_CREATE entries,
 * with `revertOf` naming the change they undo).
 */
export function restoreRecords(
  db: Db,
  actor: Actor,
  table: TableDefinition,
  saved: RecordInput[],
  options: Pick<WriteOptions, 'revertOf'> = {},
): Promise<RecordRow[]> {
  return insertAsTheyWere(db, actor, table, saved, { ...options, journaled: true });
}

/**
 * refillRecords puts a re-created table's records back as they were (ids and created_at kept), with their INSERT
 * events but no history entries of their own: the table's SCHEMA_CREATE entry holds them.
 */
export function refillRecords(
  db: Db,
  actor: Actor,
  table: TableDefinition,
  saved: RecordInput[],
): Promise<RecordRow[]> {
  return insertAsTheyWere(db, actor, table, saved, { journaled: false });
}

/**
 * lockRecord reads one record for a change that follows in the same transaction (PostgreSQL locks its row), or
 * null when there is none. Call it with a scope.
 */
export async function lockRecord(db: Db, actor: Actor, table: TableDefinition, id: number): Promise<RecordRow | null> {
  assertCan(actor, 'write', table);
  try {
    const ruled = withRules(
      recordIdCondition(id),
      rowRuleOf(actor, table, 'update'),
      rowRuleOf(actor, table, 'select'),
    );
    const [raw] = await selectRowsForChange(db.kysely, db.dialect, table, ruled);
    return raw ? toRecordRow(db.dialect.name, table, raw) : null;
  } catch (error) {
    throw translated(db, error, table);
  }
}
