import type { ColumnType } from '@basalt/shared';
import type { SqlDialect, StoredValue } from '../../db/dialect/dialect.js';
import { jsonEqual } from '../../db/jsonb.js';
import { columnTypeIn, type Executor, isJsonType, storedValue } from '../../db/user-tables.js';
import { ApiError } from '../../http/errors.js';
import type { TableDefinition } from '../tables/table-definition.js';
import { unknownFilterColumn } from './record-errors.js';
import { conflictOn } from './record-unique.js';
import { toRecordRow } from './record-values.js';
import { insertRows, type RawRow, type StoredRow, selectRowsByColumnValues, syncIdCounter } from './records.store.js';

// Inserts and upserts of checked rows. Rows go in consecutive runs, each run one statement per chunk: a run
// holds rows that all carry an id or all lack one, because PostgreSQL refuses an explicit NULL id while the
// rows of one statement share one column list (a row lacking a user column gets NULL, its only default).

function runsOf(rows: StoredRow[]): StoredRow[][] {
  const runs: StoredRow[][] = [];
  let current: StoredRow[] = [];
  for (const row of rows) {
    if (current.length > 0 && 'id' in row !== 'id' in (current[0] as StoredRow)) {
      runs.push(current);
      current = [];
    }
    current.push(row);
  }
  if (current.length > 0) runs.push(current);
  return runs;
}

function columnsOf(run: StoredRow[]): string[] {
  const columns = new Set<string>();
  for (const row of run) for (const column of Object.keys(row)) columns.add(column);
  columns.add('created_at');
  columns.add('updated_at');
  return [...columns];
}

// A row re-created from history (a reverted delete) carries its original created_at; no other row has one.
function withTimestamps(run: StoredRow[], now: Date, dialect: SqlDialect): StoredRow[] {
  const at = storedValue(dialect, 'date', now.toISOString());
  return run.map((row) => ({ ...row, created_at: row.created_at ?? at, updated_at: at }));
}

/** insertStoredRows inserts rows in input order and returns them as stored. */
export async function insertStoredRows(
  db: Executor,
  dialect: SqlDialect,
  table: TableDefinition,
  rows: StoredRow[],
  now: Date,
): Promise<RawRow[]> {
  const written: RawRow[] = [];
  for (const run of runsOf(rows)) {
    written.push(...(await insertRows(db, dialect, table, columnsOf(run), withTimestamps(run, now, dialect))));
  }
  if (rows.some((row) => 'id' in row)) await syncIdCounter(db, dialect, table);
  return written;
}

/** UpsertSettings choose the conflict columns (PostgREST's `on_conflict`) and what a conflict does. */
export interface UpsertSettings {
  onConflict: readonly string[];
  ignoreDuplicates: boolean;
}

/**
 * arbiterOf picks the column that decides a conflict among `on_conflict`'s: id when it is listed, else the first
 * unique column. PostgREST needs a unique constraint over exactly the listed columns; Basalt's are one column
 * each, so a list that holds one stands for a constraint over the whole list (see checkSameTargets).
 */
function arbiterOf(table: TableDefinition, columns: readonly string[]): string {
  for (const column of columns) if (columnTypeIn(table, column) === null) throw unknownFilterColumn(table, column);
  const arbiter = columns.includes('id') ? 'id' : columns.find((column) => table.schema[column]?.unique === true);
  if (arbiter !== undefined) return arbiter;
  throw new ApiError(
    400,
    '42P10',
    'there is no unique or exclusion constraint matching the ON CONFLICT specification',
    {
      hint: `Basalt resolves conflicts on id or a unique column, and none of ${columns
        .map((column) => `"${column}"`)
        .join(', ')} of "${table.name}" is one`,
    },
  );
}

function keyOf(value: StoredValue | undefined): string {
  return JSON.stringify(value ?? null);
}

function sameValue(type: ColumnType, a: StoredValue | undefined, b: StoredValue | undefined): boolean {
  // As in a unique index, NULL equals nothing.
  if (a === undefined || a === null || b === undefined || b === null) return false;
  return isJsonType(type) && typeof a === 'string' && typeof b === 'string'
    ? jsonEqual(JSON.parse(a), JSON.parse(b))
    : a === b;
}

/**
 * checkSameTargets checks, for `on_conflict=a,b`, that every row meeting a stored record on the arbiter also holds
 * that record's values in the other listed columns: such a row is the conflict, merged or ignored. A row that
 * differs in one of them does not conflict on (a, b); inserting it clashes with the arbiter's unique index, so
 * it is refused with 23505 as PostgreSQL would refuse it.
 */
function checkSameTargets(
  dialect: SqlDialect,
  table: TableDefinition,
  rows: StoredRow[],
  previous: RawRow[],
  arbiter: string,
  others: string[],
): void {
  const stored = new Map<string, StoredRow>();
  for (const raw of previous) {
    const record = toRecordRow(dialect.name, table, raw);
    const row: StoredRow = {};
    for (const column of [arbiter, ...others]) {
      row[column] = storedValue(dialect, columnTypeIn(table, column) ?? 'text', record[column] ?? null);
    }
    stored.set(keyOf(row[arbiter]), row);
  }
  for (const row of rows) {
    const value = row[arbiter];
    const match = value === undefined || value === null ? undefined : stored.get(keyOf(value));
    if (!match || value === undefined) continue;
    const same = others.every((column) => sameValue(columnTypeIn(table, column) ?? 'text', row[column], match[column]));
    if (!same) throw conflictOn(table, arbiter, value);
  }
}

/**
 * upsertStoredRows inserts rows, resolving conflicts on the arbiter (arbiterOf); it returns the written rows and
 * the previous state of every row that existed (read and locked first, so history can tell an update).
 */
export async function upsertStoredRows(
  db: Executor,
  dialect: SqlDialect,
  table: TableDefinition,
  rows: StoredRow[],
  now: Date,
  settings: UpsertSettings,
): Promise<{ written: RawRow[]; previous: RawRow[] }> {
  const onConflict = arbiterOf(table, settings.onConflict);
  const values = rows.map((row) => row[onConflict]).filter((v) => v !== undefined && v !== null);
  if (new Set(values.map(keyOf)).size !== values.length) {
    throw new ApiError(
      400,
      '21000',
      `A request cannot change the same record twice: two rows have the same "${onConflict}"`,
    );
  }
  const previous = values.length > 0 ? await selectRowsByColumnValues(db, dialect, table, onConflict, values) : [];
  const others = [...new Set(settings.onConflict)].filter((column) => column !== onConflict);
  if (others.length > 0) checkSameTargets(dialect, table, rows, previous, onConflict, others);
  const written: RawRow[] = [];
  for (const run of runsOf(rows)) {
    const columns = columnsOf(run);
    const updateColumns = settings.ignoreDuplicates
      ? null
      : columns.filter((c) => c !== onConflict && c !== 'id' && c !== 'created_at');
    written.push(
      ...(await insertRows(db, dialect, table, columns, withTimestamps(run, now, dialect), {
        conflictColumn: onConflict,
        updateColumns,
      })),
    );
  }
  if (rows.some((row) => 'id' in row)) await syncIdCounter(db, dialect, table);
  return { written, previous };
}
