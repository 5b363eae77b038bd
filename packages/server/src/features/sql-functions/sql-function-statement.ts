import type { ColumnType } from '@basalt/shared';
import type { CellValue } from '../../db/column-types/column-type.js';
import { columnTypeOf } from '../../db/column-types/registry.js';
import type { SqlDialect } from '../../db/dialect/dialect.js';
import { quoteIdentifier } from '../../db/identifiers.js';
import { SqlText } from '../../db/sql-text.js';
import { type Condition, type OrderTerm, writeCondition, writeOrder } from '../../db/user-conditions.js';
import { quotedColumn, quotedTable, type UserTableShape } from '../../db/user-tables.js';
import type { CompiledBody } from './sql-function-body.js';
import type { TypedName } from './sql-functions.schemas.js';

// A call's one statement: the function's SELECT as a subquery, its parameters bound and cast to their declared
// types (CAST(… AS <the type's column type on this engine>), so both engines compare them as the owner meant), its
// tables the account's real ones, and around it the caller's filters, order and paging on the declared columns.

/** Bound is what a call binds: each placeholder's type and value, and each table name's definition id. */
export interface Bound {
  types: ReadonlyMap<string, ColumnType>;
  values: ReadonlyMap<string, CellValue>;
  tableIds: ReadonlyMap<string, number>;
}

/** ResultRead narrows the rows of a set: the caller's filters (checked), order and paging. */
export interface ResultRead {
  where?: Condition | undefined;
  order?: OrderTerm[];
  limit: number | null;
  offset: number;
}

const RESULT = quoteIdentifier('rpc_result');

function writeBody(out: SqlText, dialect: SqlDialect, body: CompiledBody, bound: Bound): void {
  for (const part of body.parts) {
    if (part.kind === 'text') {
      out.raw(part.text);
    } else if (part.kind === 'param') {
      const type = bound.types.get(part.name) ?? 'text';
      const definition = columnTypeOf(type);
      const value = bound.values.get(part.name) ?? null;
      out.raw('CAST(').value(value === null ? null : definition.toStorage(value, dialect.name));
      out.raw(` AS ${definition.sqlType[dialect.name]})`);
    } else {
      const id = bound.tableIds.get(part.name);
      if (id === undefined) throw new Error(`writeBody: table ${part.name} was not resolved`);
      out.raw(quotedTable(id));
      if (part.alias !== null) out.raw(` AS ${quoteIdentifier(part.alias)}`);
    }
  }
}

function start(dialect: SqlDialect, select: string): SqlText {
  return new SqlText(dialect.userTables.numberedParameters).raw(`SELECT ${select} FROM (`);
}

const columnList = (columns: readonly TypedName[]) => columns.map((c) => quotedColumn(c.name)).join(', ');

/** resultShape is the declared columns as the condition writer reads a table (id 0: never a real table). */
export function resultShape(columns: readonly TypedName[]): UserTableShape {
  return {
    id: 0,
    schema: Object.fromEntries(columns.map((c) => [c.name, { type: c.type, required: false, unique: false }])),
  };
}

/** firstRowStatement reads the first row: every column for a scalar, the declared ones for a row. */
export function firstRowStatement(
  dialect: SqlDialect,
  body: CompiledBody,
  bound: Bound,
  columns: readonly TypedName[] | null,
  limit = 1,
): SqlText {
  const out = start(dialect, columns ? columnList(columns) : '*');
  writeBody(out, dialect, body, bound);
  return out.raw(`) AS ${RESULT} LIMIT ${limit}`);
}

/** rowsStatement reads the declared columns of the rows a read selects. */
export function rowsStatement(
  dialect: SqlDialect,
  body: CompiledBody,
  bound: Bound,
  columns: readonly TypedName[],
  read: ResultRead,
): SqlText {
  const out = start(dialect, columnList(columns));
  writeBody(out, dialect, body, bound);
  out.raw(`) AS ${RESULT}`);
  const shape = resultShape(columns);
  if (read.where) {
    out.raw(' WHERE ');
    writeCondition(out, dialect, shape, read.where);
  }
  if (read.order && read.order.length > 0) {
    out.raw(' ORDER BY ');
    writeOrder(out, dialect, shape, read.order);
  }
  // Both are checked safe integers (the query parser): written as literals, like the record reads.
  if (read.limit !== null || read.offset > 0) {
    out.raw(` LIMIT ${read.limit ?? Number.MAX_SAFE_INTEGER} OFFSET ${read.offset}`);
  }
  return out;
}

/** countStatement counts the rows a read's condition selects. */
export function countStatement(
  dialect: SqlDialect,
  body: CompiledBody,
  bound: Bound,
  columns: readonly TypedName[],
  where: Condition | undefined,
): SqlText {
  const out = start(dialect, 'count(*) AS n');
  writeBody(out, dialect, body, bound);
  out.raw(`) AS ${RESULT}`);
  if (where) {
    out.raw(' WHERE ');
    writeCondition(out, dialect, resultShape(columns), where);
  }
  return out;
}

/** decodeRow turns a stored row of the declared columns into API values. */
export function decodeRow(
  dialect: SqlDialect,
  columns: readonly TypedName[],
  raw: Record<string, unknown>,
): Record<string, CellValue> {
  const row: Record<string, CellValue> = {};
  for (const column of columns) {
    const value = raw[column.name];
    row[column.name] =
      value === null || value === undefined ? null : columnTypeOf(column.type).fromStorage(value, dialect.name);
  }
  return row;
}

/**
 * selectionStatement is a write function's selection as it is (sql-function-write.ts); `lock` locks the rows it
 * reads on PostgreSQL until the write that follows commits, as an UPDATE or a DELETE would.
 */
export function selectionStatement(dialect: SqlDialect, body: CompiledBody, bound: Bound, lock: boolean): SqlText {
  const out = new SqlText(dialect.userTables.numberedParameters);
  writeBody(out, dialect, body, bound);
  if (lock) out.raw(dialect.userTables.rowLockSql);
  return out;
}

// Values a write's result may bind for its filters: well inside both engines' limits of bound values.
const RESULT_VALUES_MAX = 30_000;

/**
 * valuesBody is a write function's returned rows as a statement of their own (VALUES, each value bound and cast to
 * its declared type; none: a row of NULLs that WHERE 1 = 0 drops), so that filters, order, paging and counts read
 * them as they read a read function's result. null when they are too many to bind.
 */
export function valuesBody(
  columns: readonly TypedName[],
  rows: ReadonlyArray<Record<string, CellValue>>,
): { body: CompiledBody; bound: Bound } | null {
  if (rows.length * columns.length > RESULT_VALUES_MAX) return null;
  const parts: CompiledBody['parts'] = [];
  const types = new Map<string, ColumnType>();
  const values = new Map<string, CellValue>();
  const row = (i: number, record: Record<string, CellValue> | null, named: boolean) =>
    columns.forEach((column, j) => {
      const name = `r${i}c${j}`;
      types.set(name, column.type);
      values.set(name, record?.[column.name] ?? null);
      parts.push({ kind: 'text', text: j === 0 ? '' : ', ' }, { kind: 'param', name });
      if (named) parts.push({ kind: 'text', text: ` AS ${quotedColumn(column.name)}` });
    });
  if (rows.length === 0) {
    parts.push({ kind: 'text', text: 'SELECT ' });
    row(0, null, true);
    parts.push({ kind: 'text', text: ' WHERE 1 = 0' });
  } else {
    const names = columns.map((c, j) => `column${j + 1} AS ${quotedColumn(c.name)}`).join(', ');
    parts.push({ kind: 'text', text: `SELECT ${names} FROM (VALUES ` });
    rows.forEach((record, i) => {
      parts.push({ kind: 'text', text: i === 0 ? '(' : ', (' });
      row(i, record, false);
      parts.push({ kind: 'text', text: ')' });
    });
    parts.push({ kind: 'text', text: ') AS rpc_values' });
  }
  return { body: { parts, tables: [] }, bound: { types, values, tableIds: new Map() } };
}
