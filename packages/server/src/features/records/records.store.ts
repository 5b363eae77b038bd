import type { CompiledQuery } from 'kysely';
import type { ReadRows, SqlDialect, StoredValue } from '../../db/dialect/dialect.js';
import { userTableName } from '../../db/identifiers.js';
import { type RowCountState, type ShardRow, stateOf, versionsSql } from '../../db/row-counts.js';
import { preparedQuery, SqlText } from '../../db/sql-text.js';
import { type Condition, type OrderTerm, writeCondition, writeOrder } from '../../db/user-conditions.js';
import { type Executor, quotedColumn, quotedTable, type UserTableShape } from '../../db/user-tables.js';
import { tableStatementName } from './record-statement-names.js';

// The SQL of a user table's rows (STYLE.md, Server rule 3). Callers pass checked column names and stored
// values; names are quoted by db/user-tables.ts and every value is bound. RETURNING * reads the rows back
// in the statement that wrote them (SQLite 3.35+ and PostgreSQL).

/** RawRow is a row as the driver returns it, before column types turn it into API values. */
export type RawRow = Record<string, unknown>;

/** StoredRow maps column names to bound values. */
export type StoredRow = Record<string, StoredValue>;

// SQLite allows 32,766 bound values per statement and PostgreSQL 65,535; long inserts are cut into chunks.
const MAX_PARAMETERS = 30_000;
const ID_CHUNK = 1_000;

/** SelectRowsOptions narrows and orders a read. */
export interface SelectRowsOptions {
  where?: Condition | undefined;
  order?: OrderTerm[] | undefined;
  limit?: number | null | undefined;
  offset?: number | undefined;
}

/** statement starts a user-table statement in the engine's placeholder style. */
export function statement(dialect: SqlDialect): SqlText {
  return new SqlText(dialect.userTables.numberedParameters);
}

function writeWhere(out: SqlText, dialect: SqlDialect, shape: UserTableShape, where: Condition | undefined): SqlText {
  if (where) {
    out.raw(' WHERE ');
    writeCondition(out, dialect, shape, where);
  }
  return out;
}

/** RowSource runs statements: a connection or transaction, or a Db's readRows (reads outside transactions) or run. */
export type RowSource = Executor | ReadRows;

/** rowsOf runs a written statement and returns its rows. */
export function rowsOf<R = RawRow>(db: RowSource, out: SqlText): Promise<R[]> {
  return run(db, out.compiled<R>());
}

/** run runs a compiled statement on a connection, a transaction or a Db's runner. */
export function run<R>(db: RowSource, query: CompiledQuery<R>): Promise<R[]> {
  return typeof db === 'function' ? db(query) : db.executeQuery(query).then((result) => result.rows as R[]);
}

// LIMIT and OFFSET are written as literals (both are checked safe integers): a bound LIMIT made SQLite's
// get-by-id several times slower. Both engines need a LIMIT before an OFFSET: "no limit" is the largest safe
// integer.
function pagingSql(limit: number | null, offset: number): string {
  if (limit === null && offset === 0) return '';
  const count = limit ?? Number.MAX_SAFE_INTEGER;
  if (!Number.isSafeInteger(count) || !Number.isSafeInteger(offset) || count < 0 || offset < 0) {
    throw new Error(`pagingSql: invalid limit ${limit} or offset ${offset}`);
  }
  return ` LIMIT ${count} OFFSET ${offset}`;
}

/** selectRows reads the rows matching a condition, ordered (by id when no order is given) and paged. */
export async function selectRows(
  db: RowSource,
  dialect: SqlDialect,
  shape: UserTableShape,
  options: SelectRowsOptions,
): Promise<RawRow[]> {
  const order = options.order && options.order.length > 0 ? options.order : ID_ORDER;
  const out = statement(dialect).raw(`SELECT * FROM ${quotedTable(shape.id)}`);
  writeWhere(out, dialect, shape, options.where).raw(' ORDER BY ');
  writeOrder(out, dialect, shape, order);
  out.raw(pagingSql(options.limit ?? null, options.offset ?? 0));
  return rowsOf(db, out);
}

const ID_ORDER: OrderTerm[] = [{ column: 'id', direction: 'asc' }];

/** countRows counts the rows matching a condition. */
export async function countRows(
  db: RowSource,
  dialect: SqlDialect,
  shape: UserTableShape,
  where: Condition | undefined,
): Promise<number> {
  const out = statement(dialect).raw(`SELECT count(*) AS n FROM ${quotedTable(shape.id)}`);
  const [row] = await rowsOf<{ n: number | string }>(db, writeWhere(out, dialect, shape, where));
  return Number(row?.n ?? 0);
}

/**
 * countWithVersions counts the rows a condition selects together with the table's kept count rows, in one
 * statement (one snapshot on both engines), so that the count can be cached under the versions it was taken at.
 */
export async function countWithVersions(
  db: RowSource,
  dialect: SqlDialect,
  shape: UserTableShape,
  where: Condition | undefined,
): Promise<{ count: number; state: RowCountState | null }> {
  const out = versionsSql(dialect, shape.id).raw(
    ` UNION ALL SELECT NULL, count(*), NULL FROM ${quotedTable(shape.id)}`,
  );
  writeWhere(out, dialect, shape, where);
  const rows = await rowsOf<ShardRow>(db, out);
  const counted = rows.find((row) => row.s === null);
  return { count: Number(counted?.n ?? 0), state: stateOf(rows) };
}

// How many rows a sampled estimate reads (countSample): enough for a few percent of error on a common filter,
// few enough to stay well under a millisecond.
const SAMPLE_ROWS = 2_000;

/**
 * countSample counts the rows a condition selects among a table's first SAMPLE_ROWS rows by id: SQLite's
 * statistic for a planned count (the caller scales it to the table's row count).
 */
export async function countSample(
  db: RowSource,
  dialect: SqlDialect,
  shape: UserTableShape,
  where: Condition,
): Promise<{ sampled: number; matched: number }> {
  const out = statement(dialect).raw(`SELECT count(*) AS s, coalesce(sum(CASE WHEN `);
  writeCondition(out, dialect, shape, where);
  out.raw(
    ` THEN 1 ELSE 0 END), 0) AS m FROM (SELECT * FROM ${quotedTable(shape.id)} ORDER BY "id" LIMIT ${SAMPLE_ROWS})`,
  );
  out.raw(' AS sample');
  const [row] = await rowsOf<{ s: number | string; m: number | string }>(db, out);
  return { sampled: Number(row?.s ?? 0), matched: Number(row?.m ?? 0) };
}

/** plannedRowCount is the engine planner's estimate of the rows a condition selects (null: it keeps none). */
export function plannedRowCount(
  db: ReadRows,
  dialect: SqlDialect,
  shape: UserTableShape,
  where: Condition | undefined,
): Promise<number | null> {
  const out = writeWhere(statement(dialect).raw(`SELECT 1 FROM ${quotedTable(shape.id)}`), dialect, shape, where);
  return dialect.userTables.plannedRows(db, out.compiled());
}

/** selectRowsForChange reads the matching rows and locks them (PostgreSQL) for the update that follows. */
export async function selectRowsForChange(
  db: RowSource,
  dialect: SqlDialect,
  shape: UserTableShape,
  where: Condition | undefined,
): Promise<RawRow[]> {
  const out = statement(dialect).raw(`SELECT * FROM ${quotedTable(shape.id)}`);
  writeWhere(out, dialect, shape, where).raw(` ORDER BY "id"${dialect.userTables.rowLockSql}`);
  return rowsOf(db, out);
}

function chunks<T>(items: T[], size: number): T[][] {
  if (items.length <= size) return [items];
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** UpsertTarget is the unique column an upsert resolves on, and what it updates (nothing: ignore). */
export interface UpsertTarget {
  conflictColumn: string;
  /** Columns set from the new row on conflict; null keeps the existing row (ignore-duplicates). */
  updateColumns: string[] | null;
  /**
   * The ids of the stored rows a conflict may update: those the caller read and locked before, so that it
   * knows their previous state. A row that meets any other row (one another transaction inserted after that
   * read) is neither inserted nor updated nor returned; PostgreSQL still locks the row it met.
   */
  updatableIds: readonly number[];
}

/** upsertRowsPerStatement is how many rows of `columnCount` columns one upsert statement takes, with their ids. */
export function upsertRowsPerStatement(columnCount: number): number {
  return Math.max(1, Math.floor(MAX_PARAMETERS / (columnCount + 1)));
}

/**
 * insertRows inserts rows that all carry the same columns, in chunks, and returns them as stored; with a
 * target it is an upsert (`ON CONFLICT … DO UPDATE | DO NOTHING`, which returns only the rows it wrote).
 */
export async function insertRows(
  db: RowSource,
  dialect: SqlDialect,
  shape: UserTableShape,
  columns: string[],
  rows: StoredRow[],
  upsert: UpsertTarget | null = null,
): Promise<RawRow[]> {
  const written: RawRow[] = [];
  const budget = MAX_PARAMETERS - (upsert?.updatableIds.length ?? 0);
  for (const chunk of chunks(rows, Math.max(1, Math.floor(budget / Math.max(1, columns.length))))) {
    const returned = await run(db, insertStatement(dialect, shape, columns, chunk, upsert));
    if (chunk === rows) return returned;
    written.push(...returned);
  }
  return written;
}

/** insertStatement is one insert (or upsert) of rows that all carry `columns`, returning what it wrote. */
export function insertStatement(
  dialect: SqlDialect,
  shape: UserTableShape,
  columns: string[],
  rows: StoredRow[],
  upsert: UpsertTarget | null = null,
): CompiledQuery<RawRow> {
  const out = statement(dialect).raw(
    `INSERT INTO ${quotedTable(shape.id)} (${columns.map(quotedColumn).join(', ')}) VALUES `,
  );
  rows.forEach((row, i) => {
    out.raw(i === 0 ? '(' : ', (');
    out.values(columns.map((c) => row[c] ?? null)).raw(')');
  });
  if (upsert) writeConflict(out, shape, upsert);
  out.raw(' RETURNING *');
  // Prepared by name (PostgreSQL): a create's insert has one text per table and set of columns.
  const name = tableStatementName(shape, 'ins', out.text);
  return name === null ? out.compiled<RawRow>() : preparedQuery<RawRow>(out.text, out.parameters, name);
}

function writeConflict(out: SqlText, shape: UserTableShape, upsert: UpsertTarget): void {
  const target = quotedColumn(upsert.conflictColumn);
  if (upsert.updateColumns === null || upsert.updateColumns.length === 0) {
    out.raw(` ON CONFLICT (${target}) DO NOTHING`);
    return;
  }
  const set = upsert.updateColumns.map((c) => `${quotedColumn(c)} = excluded.${quotedColumn(c)}`);
  out.raw(` ON CONFLICT (${target}) DO UPDATE SET ${set.join(', ')} WHERE `);
  if (upsert.updatableIds.length === 0) out.raw('1 = 0');
  else
    out
      .raw(`${quotedTable(shape.id)}."id" IN (`)
      .values(upsert.updatableIds)
      .raw(')');
}

/** updateRowsById sets the same values on the rows with the given ids and returns them as stored. */
export async function updateRowsById(
  db: RowSource,
  dialect: SqlDialect,
  shape: UserTableShape,
  ids: number[],
  values: StoredRow,
): Promise<RawRow[]> {
  const updated: RawRow[] = [];
  for (const chunk of chunks(ids, ID_CHUNK)) {
    const out = statement(dialect).raw(`UPDATE ${quotedTable(shape.id)} SET `);
    Object.entries(values).forEach(([column, value], i) => {
      out.raw(`${i > 0 ? ', ' : ''}${quotedColumn(column)} = `).value(value);
    });
    out.raw(' WHERE "id" IN (').values(chunk).raw(') RETURNING *');
    updated.push(...(await rowsOf(db, out)));
  }
  return updated;
}

/** deleteRowsById deletes the rows with the given ids and returns them as they were. */
export async function deleteRowsById(
  db: RowSource,
  dialect: SqlDialect,
  shape: UserTableShape,
  ids: number[],
): Promise<RawRow[]> {
  const deleted: RawRow[] = [];
  for (const chunk of chunks(ids, ID_CHUNK)) {
    const out = statement(dialect).raw(`DELETE FROM ${quotedTable(shape.id)} WHERE "id" IN (`);
    out.values(chunk).raw(') RETURNING *');
    deleted.push(...(await rowsOf(db, out)));
  }
  return deleted;
}

/** selectRowsByColumnValues reads (and locks) the rows whose column holds one of the values: an upsert's targets. */
export async function selectRowsByColumnValues(
  db: RowSource,
  dialect: SqlDialect,
  shape: UserTableShape,
  column: string,
  values: StoredValue[],
): Promise<RawRow[]> {
  const found: RawRow[] = [];
  for (const chunk of chunks(values, ID_CHUNK)) {
    const out = statement(dialect).raw(`SELECT * FROM ${quotedTable(shape.id)} WHERE ${quotedColumn(column)} IN (`);
    out.values(chunk).raw(`)${dialect.userTables.rowLockSql}`);
    found.push(...(await rowsOf(db, out)));
  }
  return found;
}

/** syncIdCounter moves the table's id counter past rows inserted with explicit ids (and past atLeast). */
export async function syncIdCounter(
  db: Executor,
  dialect: SqlDialect,
  shape: UserTableShape,
  atLeast = 0,
): Promise<void> {
  await dialect.userTables.syncIdSequence(db, userTableName(shape.id), atLeast);
}
