import type { Db } from '../../db/database.js';
import type { Condition } from '../../db/user-tables.js';
import type { TableDefinition } from '../tables/table-definition.js';
import { checkCondition } from './record-conditions.js';
import { unknownColumn } from './record-errors.js';
import { insertStoredRows, upsertStoredRows } from './record-inserts.js';
import { type RecordInput, type RecordRow, storedInputRow, toRecordRow } from './record-values.js';
import { logChange, type RecordCaller, runWrite, type WriteOptions } from './record-writes.js';
import { deleteRowsById, selectRowsForChange, updateRowsById } from './records.store.js';

// THE path of every record write (DESIGN.md principle 4), whichever API it came from: validate against the
// table's schema, write the rows, and in the same transaction one change_history row per record and one
// activity entry per kind of change (record-writes.ts); change events go out after the commit. A failure
// anywhere rolls all of it back. Tables come from the definition cache (features/tables), so no call reads a
// schema. The reads are in record-reads.ts; both are exported from here, the records service's one door.

export type { Condition, OrderTerm } from '../../db/user-tables.js';
export { recordIdCondition } from './record-conditions.js';
export { countRecords, getRecord, listRecords, type ReadOptions } from './record-reads.js';
export type { RecordInput, RecordRow } from './record-values.js';
export {
  assertOwner,
  finishWrite,
  logChange,
  type RecordCaller,
  translated,
  type WriteLog,
  type WriteOptions,
} from './record-writes.js';

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
  caller: RecordCaller,
  table: TableDefinition,
  inputs: RecordInput[],
  options: CreateOptions = {},
): Promise<RecordRow[]> {
  const from = options.from ?? 'json';
  const rows = projectInputs(table, inputs, options.columns).map((input) =>
    storedInputRow(db.dialect.name, table, input, { from, mode: 'create' }),
  );
  if (rows.length === 0) return [];
  return runWrite(db, caller, table, options, rows, async (trx, log, now) => {
    const written = (await insertStoredRows(trx, db.dialect, table, rows, now)).map((raw) =>
      toRecordRow(db.dialect.name, table, raw),
    );
    for (const row of written) logChange(log, caller, table, 'RECORD_CREATE', null, row);
    return written;
  });
}

/** createRecord inserts one record. */
export async function createRecord(
  db: Db,
  caller: RecordCaller,
  table: TableDefinition,
  input: RecordInput,
  options: CreateOptions = {},
): Promise<RecordRow> {
  const [row] = await createRecords(db, caller, table, [input], options);
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
  caller: RecordCaller,
  table: TableDefinition,
  inputs: RecordInput[],
  options: UpsertOptions = {},
): Promise<RecordRow[]> {
  return (await upsertRecordsWithOutcome(db, caller, table, inputs, options)).rows;
}

/** upsertRecordsWithOutcome is upsertRecords that also tells how many rows were inserted rather than updated. */
export async function upsertRecordsWithOutcome(
  db: Db,
  caller: RecordCaller,
  table: TableDefinition,
  inputs: RecordInput[],
  options: UpsertOptions = {},
): Promise<UpsertOutcome> {
  const from = options.from ?? 'json';
  const rows = projectInputs(table, inputs, options.columns).map((input) =>
    storedInputRow(db.dialect.name, table, input, { from, mode: 'create' }),
  );
  if (rows.length === 0) return { rows: [], inserted: 0 };
  let inserted = 0;
  const written = await runWrite(db, caller, table, options, rows, async (trx, log, now) => {
    const { written, previous } = await upsertStoredRows(trx, db.dialect, table, rows, now, {
      onConflict: typeof options.onConflict === 'string' ? [options.onConflict] : (options.onConflict ?? ['id']),
      ignoreDuplicates: options.ignoreDuplicates ?? false,
    });
    const before = new Map(previous.map((raw) => [Number(raw.id), toRecordRow(db.dialect.name, table, raw)]));
    const result = written.map((raw) => toRecordRow(db.dialect.name, table, raw));
    inserted = 0;
    for (const row of result) {
      const old = before.get(row.id) ?? null;
      if (!old) inserted++;
      logChange(log, caller, table, old ? 'RECORD_UPDATE' : 'RECORD_CREATE', old, row);
    }
    return result;
  });
  return { rows: written, inserted };
}

/** updateRecords sets the patch's columns on every record the condition selects and returns them, by id. */
export async function updateRecords(
  db: Db,
  caller: RecordCaller,
  table: TableDefinition,
  where: Condition | undefined,
  patch: RecordInput,
  options: WriteOptions = {},
): Promise<RecordRow[]> {
  const checked = where ? checkCondition(db.dialect, table, where) : undefined;
  const values = storedInputRow(db.dialect.name, table, patch, { from: options.from ?? 'json', mode: 'update' });
  if (Object.keys(values).length === 0) return runWrite(db, caller, table, options, [], async () => []);
  return runWrite(db, caller, table, options, [values], async (trx, log, now) => {
    const previous = await selectRowsForChange(trx, db.dialect, table, checked);
    if (previous.length === 0) return [];
    const stored = { ...values, updated_at: now.toISOString() };
    const updated = await updateRowsById(
      trx,
      db.dialect,
      table,
      previous.map((raw) => Number(raw.id)),
      stored,
    );
    const before = new Map(previous.map((raw) => [Number(raw.id), toRecordRow(db.dialect.name, table, raw)]));
    const result = byId(updated.map((raw) => toRecordRow(db.dialect.name, table, raw)));
    for (const row of result) logChange(log, caller, table, 'RECORD_UPDATE', before.get(row.id) ?? null, row);
    return result;
  });
}

/** deleteRecords deletes every record the condition selects and returns them as they were, by id. */
export async function deleteRecords(
  db: Db,
  caller: RecordCaller,
  table: TableDefinition,
  where: Condition | undefined,
  options: Omit<WriteOptions, 'from'> = {},
): Promise<RecordRow[]> {
  const checked = where ? checkCondition(db.dialect, table, where) : undefined;
  return runWrite(db, caller, table, options, [], async (trx, log) => {
    const previous = await selectRowsForChange(trx, db.dialect, table, checked);
    if (previous.length === 0) return [];
    const deleted = await deleteRowsById(
      trx,
      db.dialect,
      table,
      previous.map((raw) => Number(raw.id)),
    );
    const result = byId(deleted.map((raw) => toRecordRow(db.dialect.name, table, raw)));
    for (const row of result) logChange(log, caller, table, 'RECORD_DELETE', row, null);
    return result;
  });
}

function byId(rows: RecordRow[]): RecordRow[] {
  return rows.sort((a, b) => a.id - b.id);
}
