import type { Transaction } from 'kysely';
import type { Db } from '../../db/database.js';
import type { SystemDatabase } from '../../db/schema.js';
import type { Condition, OrderTerm } from '../../db/user-tables.js';
import { notFound } from '../../http/errors.js';
import { type ActivityAction, recordActivity } from '../activity/activity.service.js';
import { recordChanges } from '../history/history.service.js';
import type { ChangeInput, ChangeType } from '../history/history.store.js';
import type { InputSource } from '../tables/column-types/column-type.js';
import { tableCacheOf } from '../tables/table-cache.js';
import type { TableDefinition } from '../tables/table-definition.js';
import { checkCondition, checkOrder, recordIdCondition } from './record-conditions.js';
import { invalidFilter, translateDatabaseError, unknownColumn } from './record-errors.js';
import { emitRecordChanges, type RecordChangeEvent } from './record-events.js';
import { insertStoredRows, upsertStoredRows } from './record-inserts.js';
import { withConflictingValue } from './record-unique.js';
import { type RecordInput, type RecordRow, storedInputRow, toRecordRow } from './record-values.js';
import {
  countRows,
  deleteRowsById,
  type RawRow,
  type StoredRow,
  selectRowById,
  selectRows,
  selectRowsForChange,
  updateRowsById,
} from './records.store.js';

// THE path of every record write (DESIGN.md principle 4), whichever API it came from: validate against the
// table's schema, write the rows, and in the same transaction one change_history row per record and one
// activity entry per kind of change; change events go out after the commit. A failure anywhere rolls all of
// it back. Tables come from the definition cache (features/tables), so no call reads a schema.

export type { Condition, OrderTerm } from '../../db/user-tables.js';
export { recordIdCondition } from './record-conditions.js';
export type { RecordInput, RecordRow } from './record-values.js';

/** RecordCaller is who writes: the account whose table it is, and the actor history names (default: the account). */
export interface RecordCaller {
  accountId: string;
  actorId?: string | null;
}

/** WriteOptions are common to every write. */
export interface WriteOptions {
  /** Where the values come from: a JSON body (default) or a form whose inputs are text (spec console-core §5). */
  from?: InputSource;
  /**
   * beforeCommit runs inside the transaction with the written rows; throwing rolls the whole write back
   * (PostgREST's singular responses answer 406 and change nothing when the count is not 1).
   */
  beforeCommit?: (rows: RecordRow[]) => void | Promise<void>;
}

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

/** ReadOptions filter, order (default: by id) and page a read. */
export interface ReadOptions {
  where?: Condition;
  order?: OrderTerm[];
  limit?: number | null;
  offset?: number;
}

type Trx = Transaction<SystemDatabase>;

/** WriteLog collects one write's history entries and change events (records-in-transaction.ts shares it). */
export interface WriteLog {
  changes: ChangeInput[];
  events: RecordChangeEvent[];
}

const EVENT_OF: Record<string, RecordChangeEvent['type']> = {
  RECORD_CREATE: 'INSERT',
  RECORD_UPDATE: 'UPDATE',
  RECORD_DELETE: 'DELETE',
};
const ACTION_OF: Record<string, ActivityAction> = {
  RECORD_CREATE: 'CREATE',
  RECORD_UPDATE: 'UPDATE',
  RECORD_DELETE: 'DELETE',
};

/** assertOwner refuses a table of another account with the 404 of a missing one. */
export function assertOwner(caller: RecordCaller, table: TableDefinition): void {
  // Principle 5: a table is only ever reached by its owner; another account sees the same 404 as for no table.
  if (table.accountId !== caller.accountId) throw notFound(`Could not find the table '${table.name}'`, 'PGRST205');
}

/** logChange adds one record's change to a write's history entries and events. */
export function logChange(
  log: WriteLog,
  caller: RecordCaller,
  table: TableDefinition,
  type: ChangeType,
  before: RecordRow | null,
  after: RecordRow | null,
) {
  const recordId = (after ?? before)?.id ?? null;
  log.changes.push({
    accountId: table.accountId,
    tableId: table.id,
    tableName: table.name,
    recordId,
    changeType: type,
    previousState: before,
    newState: after,
    actorId: caller.actorId ?? caller.accountId,
  });
  log.events.push({
    type: EVENT_OF[type] ?? 'UPDATE',
    accountId: table.accountId,
    tableId: table.id,
    tableName: table.name,
    record: after,
    oldRecord: before,
    committedAt: '',
  });
}

/** finishWrite stores a write's history and activity entries in its transaction. */
export async function finishWrite(
  trx: Trx,
  db: Db,
  caller: RecordCaller,
  table: TableDefinition,
  log: WriteLog,
  now: Date,
) {
  await recordChanges(trx, db.dialect, log.changes, now);
  const counts = new Map<string, number>();
  for (const change of log.changes) counts.set(change.changeType, (counts.get(change.changeType) ?? 0) + 1);
  for (const [type, count] of counts) {
    await recordActivity(
      trx,
      {
        accountId: caller.accountId,
        action: ACTION_OF[type] ?? 'UPDATE',
        resource: `table.${table.name}`,
        details: count === 1 ? { tableName: table.name } : { tableName: table.name, count },
      },
      now,
    );
  }
}

/** runWrite runs one write in a transaction with its history and activity, then emits its events. */
async function runWrite(
  db: Db,
  caller: RecordCaller,
  table: TableDefinition,
  options: WriteOptions,
  sent: StoredRow[],
  write: (trx: Trx, log: WriteLog, now: Date) => Promise<RecordRow[]>,
): Promise<RecordRow[]> {
  assertOwner(caller, table);
  const log: WriteLog = { changes: [], events: [] };
  const now = new Date();
  let rows: RecordRow[];
  try {
    // writeTransaction may commit this write together with others that arrived at the same time (SQLite's
    // group commit); it resolves only once this write is committed.
    rows = await db.writeTransaction(async (trx) => {
      const written = await write(trx, log, now);
      await finishWrite(trx, db, caller, table, log, now);
      await options.beforeCommit?.(written);
      return written;
    });
  } catch (error) {
    throw await withConflictingValue(db, table, translated(db, error, table), sent);
  }
  emitRecordChanges(log.events, new Date().toISOString());
  return rows;
}

/** translated turns an engine error of a write into the records service's ApiError (or returns it as is). */
export function translated(db: Db, error: unknown, table: TableDefinition): unknown {
  const apiError = translateDatabaseError(db.dialect, error, table);
  if (apiError?.code === 'table_changed') tableCacheOf(db).evict(table.id);
  return apiError ?? error;
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

async function read<T>(db: Db, table: TableDefinition, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw translated(db, error, table);
  }
}

/** listRecords reads records: filtered, ordered (by id when no order is given), limited and offset. */
export async function listRecords(
  db: Db,
  caller: RecordCaller,
  table: TableDefinition,
  options: ReadOptions = {},
): Promise<RecordRow[]> {
  assertOwner(caller, table);
  const { limit = null, offset = 0 } = options;
  if (
    (limit !== null && !(Number.isSafeInteger(limit) && limit >= 0)) ||
    !(Number.isSafeInteger(offset) && offset >= 0)
  ) {
    throw invalidFilter('Limit and offset must be whole numbers, zero or more', 'PGRST103');
  }
  const where = options.where ? checkCondition(db.dialect, table, options.where) : undefined;
  const order = options.order ? checkOrder(table, options.order) : undefined;
  // One id selects at most one row, whatever the order: a point read (a get, PostgREST's `id=eq.5`).
  const id = offset === 0 && limit !== 0 ? pointId(where) : null;
  const rows: RawRow[] = await read(db, table, () =>
    id !== null
      ? selectRowById(db.readRows, db.dialect, table, id)
      : selectRows(db.readRows, db.dialect, table, { where, order, limit, offset }),
  );
  return rows.map((raw) => toRecordRow(db.dialect.name, table, raw));
}

/** pointId is the id a checked condition selects on its own (`id = 5`), or null for any other condition. */
function pointId(where: Condition | undefined): number | null {
  if (where?.kind !== 'compare' || where.column !== 'id' || where.op !== 'eq' || where.path) return null;
  return typeof where.value === 'number' ? where.value : null;
}

/** countRecords counts the records a condition selects (all without one). */
export async function countRecords(
  db: Db,
  caller: RecordCaller,
  table: TableDefinition,
  where?: Condition,
): Promise<number> {
  assertOwner(caller, table);
  const checked = where ? checkCondition(db.dialect, table, where) : undefined;
  return read(db, table, () => countRows(db.readRows, db.dialect, table, checked));
}

/** getRecord reads one record by id, or null. */
export async function getRecord(
  db: Db,
  caller: RecordCaller,
  table: TableDefinition,
  id: number,
): Promise<RecordRow | null> {
  if (!Number.isSafeInteger(id)) return null;
  const [row] = await listRecords(db, caller, table, { where: recordIdCondition(id), limit: 1 });
  return row ?? null;
}
