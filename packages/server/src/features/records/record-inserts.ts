import type { ColumnType } from '@basalt/shared';
import type { CompiledQuery } from 'kysely';
import type { Db } from '../../db/database.js';
import type { SqlDialect, StoredValue } from '../../db/dialect/dialect.js';
import { jsonEqual } from '../../db/jsonb.js';
import { isJsonType, storedValue } from '../../db/user-conditions.js';
import type { TableDefinition } from '../../db/user-tables.js';
import { columnTypeIn } from '../../db/user-tables.js';
import { ApiError } from '../../http/errors.js';
import { unknownFilterColumn } from './record-errors.js';
import { conflictOn } from './record-unique.js';
import { toRecordRow } from './record-values.js';
import {
  insertRows,
  insertStatement,
  type RawRow,
  type StoredRow,
  selectRowsByColumnValues,
  syncIdCounter,
  upsertRowsPerStatement,
} from './records.store.js';

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

/** insertStoredRows inserts rows in input order in a write's scope and returns them as stored. */
export async function insertStoredRows(
  scope: Db,
  table: TableDefinition,
  rows: StoredRow[],
  now: Date,
): Promise<RawRow[]> {
  const { dialect } = scope;
  const written: RawRow[] = [];
  for (const run of runsOf(rows)) {
    written.push(...(await insertRows(scope.run, dialect, table, columnsOf(run), withTimestamps(run, now, dialect))));
  }
  if (rows.some((row) => 'id' in row)) await syncIdCounter(scope.kysely, dialect, table);
  return written;
}

/** oneRowInsert is the insert of one row that carries no id, with the row as it is bound (timestamps added). */
export function oneRowInsert(
  dialect: SqlDialect,
  table: TableDefinition,
  row: StoredRow,
  now: Date,
): { insert: CompiledQuery<RawRow>; stored: StoredRow } {
  const [stored] = withTimestamps([row], now, dialect) as [StoredRow];
  return { insert: insertStatement(dialect, table, columnsOf([row]), [stored]), stored };
}

/** UpsertSettings choose the conflict columns (PostgREST's `on_conflict`) and what a conflict does. */
export interface UpsertSettings {
  onConflict: readonly string[];
  ignoreDuplicates: boolean;
  /** The columns the client sent: a conflict updates only these (a column's default fills new rows alone). */
  sentColumns?: ReadonlySet<string>;
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

// The key of a stored row on a column, comparable with keyOf of a sent row's stored value.
function storedKeyOf(dialect: SqlDialect, table: TableDefinition, raw: RawRow, column: string): string {
  const record = toRecordRow(dialect.name, table, raw);
  return keyOf(storedValue(dialect, columnTypeIn(table, column) ?? 'text', record[column] ?? null));
}

function slicesOf<T>(items: T[], size: number): T[][] {
  const slices: T[][] = [];
  for (let i = 0; i < items.length; i += size) slices.push(items.slice(i, i + size));
  return slices;
}

/**
 * upsertStoredRows inserts rows, resolving conflicts on the arbiter (arbiterOf); it returns the written rows and
 * the previous state of every row it updated, so that history tells a created record from an updated one.
 *
 * The rows a conflict may update are read and locked first, and each statement may update only those
 * (UpsertTarget.updatableIds). On PostgreSQL another transaction can insert the same new key after that read
 * and before the INSERT, which then waits for it and meets its row: that row is left alone, read once it is
 * committed (and locked by the INSERT), and merged by a second statement, so it is recorded as the update it
 * is, from the state it had. SQLite runs one write at a time: there the second statement never runs.
 */
export async function upsertStoredRows(
  scope: Db,
  table: TableDefinition,
  rows: StoredRow[],
  now: Date,
  settings: UpsertSettings,
): Promise<{ written: RawRow[]; previous: RawRow[] }> {
  const { dialect, run: db } = scope;
  const onConflict = arbiterOf(table, settings.onConflict);
  const values = rows.map((row) => row[onConflict]).filter((v) => v !== undefined && v !== null);
  if (new Set(values.map(keyOf)).size !== values.length) {
    throw new ApiError(
      400,
      '21000',
      `A request cannot change the same record twice: two rows have the same "${onConflict}"`,
    );
  }
  const found = values.length > 0 ? await selectRowsByColumnValues(db, dialect, table, onConflict, values) : [];
  const others = [...new Set(settings.onConflict)].filter((column) => column !== onConflict);
  if (others.length > 0) checkSameTargets(dialect, table, rows, found, onConflict, others);
  const previous = new Map(found.map((raw) => [Number(raw.id), raw]));
  const idOfKey = new Map(found.map((raw) => [storedKeyOf(dialect, table, raw, onConflict), Number(raw.id)]));
  const keyed = (row: StoredRow) => row[onConflict] !== undefined && row[onConflict] !== null;
  const written: RawRow[] = [];
  for (const run of runsOf(rows)) {
    const columns = columnsOf(run);
    const updateColumns = settings.ignoreDuplicates
      ? null
      : columns.filter(
          (c) =>
            c !== onConflict &&
            c !== 'id' &&
            c !== 'created_at' &&
            (c === 'updated_at' || !settings.sentColumns || settings.sentColumns.has(c)),
        );
    const upsert = (slice: StoredRow[], updatableIds: number[]) =>
      insertRows(db, dialect, table, columns, slice, { conflictColumn: onConflict, updateColumns, updatableIds });
    for (const slice of slicesOf(withTimestamps(run, now, dialect), upsertRowsPerStatement(columns.length))) {
      const ids = slice.flatMap((row) => {
        const id = keyed(row) ? idOfKey.get(keyOf(row[onConflict])) : undefined;
        return id === undefined ? [] : [id];
      });
      const returned = await upsert(slice, ids);
      written.push(...returned);
      if (updateColumns === null || returned.length === slice.length) continue;
      // Rows of the slice met rows it could not update: read what every key of the slice now holds (locked),
      // and merge into the rows it has not written; each other row meets the row it wrote and is left alone.
      const targets = slice.filter(keyed);
      const writtenIds = new Set(returned.map((raw) => Number(raw.id)));
      const met = (
        await selectRowsByColumnValues(
          db,
          dialect,
          table,
          onConflict,
          targets.map((row) => row[onConflict] ?? null),
        )
      ).filter((raw) => !writtenIds.has(Number(raw.id)));
      if (others.length > 0) checkSameTargets(dialect, table, targets, met, onConflict, others);
      for (const raw of met) previous.set(Number(raw.id), raw);
      written.push(
        ...(await upsert(
          targets,
          met.map((raw) => Number(raw.id)),
        )),
      );
    }
  }
  if (rows.some((row) => 'id' in row)) await syncIdCounter(scope.kysely, dialect, table);
  return { written, previous: [...previous.values()] };
}
