import type { SqlDialect, StoredValue } from '../../db/dialect/dialect.js';
import { type Executor, storedValue } from '../../db/user-tables.js';
import { ApiError } from '../../http/errors.js';
import type { TableDefinition } from '../tables/table-definition.js';
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

function withTimestamps(run: StoredRow[], now: Date, dialect: SqlDialect): StoredRow[] {
  const at = storedValue(dialect, 'date', now.toISOString());
  return run.map((row) => ({ ...row, created_at: at, updated_at: at }));
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

/** UpsertSettings choose the conflict column and what a conflict does. */
export interface UpsertSettings {
  onConflict: string;
  ignoreDuplicates: boolean;
}

function checkConflictColumn(table: TableDefinition, column: string): void {
  if (column === 'id' || table.schema[column]?.unique === true) return;
  throw new ApiError(
    400,
    '42P10',
    `there is no unique or exclusion constraint matching the ON CONFLICT specification: "${column}" of "${table.name}" is not a unique column`,
  );
}

function keyOf(value: StoredValue | undefined): string {
  return JSON.stringify(value ?? null);
}

/**
 * upsertStoredRows inserts rows, resolving conflicts on one unique column; it returns the written rows and
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
  const { onConflict } = settings;
  checkConflictColumn(table, onConflict);
  const values = rows.map((row) => row[onConflict]).filter((v) => v !== undefined && v !== null);
  if (new Set(values.map(keyOf)).size !== values.length) {
    throw new ApiError(
      400,
      '21000',
      `A request cannot change the same record twice: two rows have the same "${onConflict}"`,
    );
  }
  const previous = values.length > 0 ? await selectRowsByColumnValues(db, dialect, table, onConflict, values) : [];
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
