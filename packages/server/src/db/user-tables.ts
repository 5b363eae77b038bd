import type { ColumnDefinition, ColumnType, TableAccess, TableSchema } from '@basalt/shared';
import { type Kysely, sql } from 'kysely';
import { dropColumnIndex, syncColumnIndexes } from './column-indexes.js';
import type { CellValue, JsonValue } from './column-types/column-type.js';
import { columnTypeOf } from './column-types/registry.js';
import type { SqlDialect, SqlFragment, StoredValue } from './dialect/dialect.js';
import { assertIdentifier, ownerIndexName, quoteIdentifier, uniqueIndexName, userTableName } from './identifiers.js';
import type { JsonPath } from './jsonb.js';
import { clearRowCount, resetRowCount } from './row-counts.js';
import type { SystemDatabase } from './schema.js';
import type { SqlOperand, SqlText } from './sql-text.js';

// User tables (DESIGN.md "Data"): one real table `t_<id>` per definition, with the system columns id,
// created_at and updated_at, then the user's columns. This file is the dialect-neutral half: identifiers,
// the condition tree and its SQL, DDL built from a schema. What the engines spell differently is in
// db/dialect/*.ts (`dialect.userTables`). Names reach SQL only through assertIdentifier + quoteIdentifier;
// values are always bound.

/** Executor is a connection or an open transaction (a Transaction is a Kysely). */
export type Executor = Kysely<SystemDatabase>;

/** UserTableShape is what SQL needs of a definition: its id (→ `t_<id>`) and its user columns in order. */
export interface UserTableShape {
  id: number;
  schema: TableSchema;
  /** schemaVersion grows with every change of the schema; a shape without one is never prepared by name. */
  schemaVersion?: number;
}

/**
 * TableDefinition is one table as the server uses it: the definition row, with `schema` holding only the
 * user's columns, in order (the system columns id, created_at and updated_at are implied).
 */
export interface TableDefinition extends UserTableShape {
  accountId: string;
  name: string;
  description: string | null;
  schemaVersion: number;
  /** Who of the app's callers may read and write the rows; absent: the default, nobody but the owner. */
  access?: TableAccess;
  createdAt: string;
  updatedAt: string;
}

/** SYSTEM_COLUMN_TYPES are the types of the columns every user table has. */
const SYSTEM_COLUMN_TYPES: Readonly<Record<'id' | 'created_at' | 'updated_at', ColumnType>> = {
  id: 'number',
  created_at: 'date',
  updated_at: 'date',
};

/** columnTypeIn returns a column's type (system columns included), or null when the table has no such column. */
export function columnTypeIn(shape: UserTableShape, column: string): ColumnType | null {
  if (Object.hasOwn(SYSTEM_COLUMN_TYPES, column))
    return SYSTEM_COLUMN_TYPES[column as keyof typeof SYSTEM_COLUMN_TYPES];
  return Object.hasOwn(shape.schema, column) ? (shape.schema[column]?.type ?? null) : null;
}

/** tableRef is the quoted SQL name of a definition's real table. */
export function tableRef(tableId: number): SqlFragment {
  return sql.raw(quoteIdentifier(userTableName(tableId)));
}

/** columnRef is a quoted column name, after the identifier gate. */
export function columnRef(column: string): SqlFragment {
  return sql.raw(quotedColumn(column));
}

// Column names repeat in every statement of the hot path: each distinct name passes the gate once.
const quotedColumns = new Map<string, string>();

/** quotedColumn is a column name checked by the identifier gate and quoted, as SQL text. */
export function quotedColumn(column: string): string {
  let quoted = quotedColumns.get(column);
  if (quoted === undefined) {
    assertIdentifier(column, 'column');
    quoted = quoteIdentifier(column);
    if (quotedColumns.size >= 10_000) quotedColumns.clear();
    quotedColumns.set(column, quoted);
  }
  return quoted;
}

const quotedTables = new Map<number, string>();

/** quotedTable is the quoted SQL name of a definition's real table, as SQL text. */
export function quotedTable(tableId: number): string {
  let quoted = quotedTables.get(tableId);
  if (quoted === undefined) {
    quoted = quoteIdentifier(userTableName(tableId));
    if (quotedTables.size >= 10_000) quotedTables.clear();
    quotedTables.set(tableId, quoted);
  }
  return quoted;
}

// ---------------------------------------------------------------------------------------------------------
// Conditions: the one filter representation of every API (rest, public, console). Values are typed API
// values (the records service converts query-string text with the column type first).

/** ComparisonOperator compares a column with one value; isdistinct is `IS DISTINCT FROM` (NULL-safe). */
export type ComparisonOperator = 'eq' | 'neq' | 'gt' | 'gte' | 'lt' | 'lte' | 'isdistinct';
/** PatternOperator: like/ilike take SQL patterns (`%`, `_`, `\` escapes); match/imatch regular expressions. */
export type PatternOperator = 'like' | 'ilike' | 'match' | 'imatch';
/** ContainmentOperator: cs contains (jsonb @>), cd contained by (<@), ov overlaps (arrays). */
export type ContainmentOperator = 'cs' | 'cd' | 'ov';

/**
 * Condition is a typed filter tree over one table's columns. A leaf may read a JSON path into a json or array
 * column (`meta->>color`, PostgREST's filter columns) instead of the whole column.
 */
export type Condition =
  | { kind: 'compare'; column: string; path?: JsonPath; op: ComparisonOperator; value: CellValue }
  | { kind: 'pattern'; column: string; path?: JsonPath; op: PatternOperator; pattern: string }
  | { kind: 'is'; column: string; path?: JsonPath; value: null | boolean | 'not_null' }
  | { kind: 'in'; column: string; path?: JsonPath; values: CellValue[] }
  | { kind: 'contains'; column: string; path?: JsonPath; op: ContainmentOperator; value: JsonValue }
  | { kind: 'and' | 'or'; conditions: Condition[] }
  | { kind: 'not'; condition: Condition }
  | RelatedCondition;

/**
 * RelatedCondition is `EXISTS` a row of another table (named `alias` in the subquery) whose `innerColumn` equals this
 * table's `outerColumn` and that meets `where`: what an embedded resource's `!inner` join and `is.null` anti-join
 * compile to. `where` is written against the other table; its own related conditions nest one level deeper.
 */
export interface RelatedCondition {
  kind: 'exists';
  table: UserTableShape;
  alias: string;
  innerColumn: string;
  outerColumn: string;
  where?: Condition;
}

/** crossesTables tells whether a condition reads another table (its count cannot follow this table's writes). */
export function crossesTables(condition: Condition): boolean {
  switch (condition.kind) {
    case 'exists':
      return true;
    case 'and':
    case 'or':
      return condition.conditions.some(crossesTables);
    case 'not':
      return crossesTables(condition.condition);
    default:
      return false;
  }
}

/** OrderTerm orders by a column or a JSON path into one; nulls default as in PostgreSQL (last for asc, first for desc). */
export interface OrderTerm {
  column: string;
  path?: JsonPath;
  direction: 'asc' | 'desc';
  nulls?: 'first' | 'last';
}

/**
 * operandType is the type of what a leaf or order term reads: the column's, or for a JSON path `json` (after a
 * final `->`) or `text` (after `->>`); null for an unknown column.
 */
export function operandType(shape: UserTableShape, column: string, path: JsonPath | undefined): ColumnType | null {
  const type = columnTypeIn(shape, column);
  if (type === null || path === undefined || path.length === 0) return type;
  return path.at(-1)?.arrow === '->>' ? 'text' : 'json';
}

function operandSql(dialect: SqlDialect, column: string, path: JsonPath | undefined): SqlOperand {
  const quoted = quotedColumn(column);
  return path === undefined || path.length === 0 ? quoted : dialect.userTables.jsonPathSql(quoted, path);
}

const COMPARISON_SQL: Record<Exclude<ComparisonOperator, 'isdistinct'>, string> = {
  eq: '=',
  neq: '<>',
  gt: '>',
  gte: '>=',
  lt: '<',
  lte: '<=',
};

const JSON_COMPARISON_SQL = { gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;

/** isJsonType tells whether a column type is stored as JSON. */
export function isJsonType(type: ColumnType): boolean {
  return type === 'json' || type === 'array';
}

/** storedValue converts an API value to what is bound for a column type on this engine. */
export function storedValue(dialect: SqlDialect, type: ColumnType, value: CellValue): StoredValue {
  return columnTypeOf(type).toStorage(value, dialect.name);
}

/**
 * writeCondition appends a condition tree to a statement. Columns must exist (the records service checks them
 * first and refuses operators that do not fit a type); this throws for an unknown column rather than guess.
 */
export function writeCondition(
  out: SqlText,
  dialect: SqlDialect,
  shape: UserTableShape,
  condition: Condition,
  scope?: string,
): void {
  const d = dialect.userTables;
  switch (condition.kind) {
    case 'and':
    case 'or': {
      if (condition.conditions.length === 0) {
        out.raw(condition.kind === 'and' ? '1 = 1' : '1 = 0');
        return;
      }
      const joiner = condition.kind === 'and' ? ' AND ' : ' OR ';
      condition.conditions.forEach((c, i) => {
        out.raw(i === 0 ? '(' : `)${joiner}(`);
        writeCondition(out, dialect, shape, c, scope);
      });
      out.raw(')');
      return;
    }
    case 'not':
      out.raw('NOT (');
      writeCondition(out, dialect, shape, condition.condition, scope);
      out.raw(')');
      return;
    case 'exists': {
      // Aliased, so that a table related to itself (a tree) is told apart from the outer row.
      const alias = quoteIdentifier(condition.alias);
      const outer = scope ?? quotedTable(shape.id);
      out.raw(`EXISTS (SELECT 1 FROM ${quotedTable(condition.table.id)} AS ${alias} WHERE `);
      out.raw(`${alias}.${quotedColumn(condition.innerColumn)} = ${outer}.${quotedColumn(condition.outerColumn)}`);
      if (condition.where) {
        out.raw(' AND (');
        writeCondition(out, dialect, condition.table, condition.where, alias);
        out.raw(')');
      }
      out.raw(')');
      return;
    }
    default:
      break;
  }
  const type = operandType(shape, condition.column, condition.path);
  if (type === null) throw new Error(`writeCondition: unknown column ${JSON.stringify(condition.column)}`);
  const column = operandSql(dialect, condition.column, condition.path);
  const json = isJsonType(type);
  switch (condition.kind) {
    case 'compare': {
      const value = storedValue(dialect, type, condition.value);
      if (condition.op === 'isdistinct') {
        d.isDistinctSql(out, column, value, json);
        return;
      }
      if (json && typeof value === 'string') {
        if (condition.op === 'eq' || condition.op === 'neq') {
          if (condition.op === 'neq') out.raw('NOT (');
          d.jsonEqualsSql(out, column, value);
          if (condition.op === 'neq') out.raw(')');
        } else {
          d.jsonCompareSql(out, column, JSON_COMPARISON_SQL[condition.op], value);
        }
        return;
      }
      out.operand(column).raw(` ${COMPARISON_SQL[condition.op]} `).value(value);
      return;
    }
    case 'pattern':
      if (condition.op === 'like' || condition.op === 'ilike') {
        d.likeSql(out, column, condition.pattern, condition.op === 'ilike');
      } else {
        d.regexSql(out, column, condition.pattern, condition.op === 'imatch');
      }
      return;
    case 'is':
      out.operand(column);
      if (condition.value === null) out.raw(' IS NULL');
      else if (condition.value === 'not_null') out.raw(' IS NOT NULL');
      else out.raw(` IS ${condition.value ? 'TRUE' : 'FALSE'}`);
      return;
    case 'in': {
      if (condition.values.length === 0) {
        out.raw('1 = 0');
        return;
      }
      const values = condition.values.map((v) => storedValue(dialect, type, v));
      if (!json) {
        out.operand(column).raw(' IN (').values(values).raw(')');
        return;
      }
      values.forEach((v, i) => {
        if (i > 0) out.raw(' OR ');
        if (typeof v !== 'string') {
          out.raw('1 = 0');
          return;
        }
        out.raw('(');
        d.jsonEqualsSql(out, column, v);
        out.raw(')');
      });
      return;
    }
    case 'contains':
      d.containmentSql(out, column, condition.op, JSON.stringify(condition.value));
      return;
  }
}

/**
 * writeOrder appends ORDER BY terms with explicit NULLS FIRST/LAST.
 * JSON values (json and array columns, `->` paths) sort in jsonb's order on both engines.
 */
export function writeOrder(out: SqlText, dialect: SqlDialect, shape: UserTableShape, order: OrderTerm[]): void {
  order.forEach((term, i) => {
    const nulls = term.nulls ?? (term.direction === 'asc' ? 'last' : 'first');
    const type = operandType(shape, term.column, term.path);
    if (type === null) throw new Error(`writeOrder: unknown column ${JSON.stringify(term.column)}`);
    const operand = operandSql(dialect, term.column, term.path);
    if (i > 0) out.raw(', ');
    out.operand(isJsonType(type) ? dialect.userTables.jsonSortSql(operand) : operand);
    out.raw(` ${term.direction === 'asc' ? 'ASC' : 'DESC'} ${nulls === 'first' ? 'NULLS FIRST' : 'NULLS LAST'}`);
  });
}

// ---------------------------------------------------------------------------------------------------------
// DDL

function columnDdl(dialect: SqlDialect, column: string, definition: ColumnDefinition, notNull = definition.required) {
  assertIdentifier(column, 'column');
  const type = columnTypeOf(definition.type).sqlType[dialect.name];
  return `${quoteIdentifier(column)} ${type}${notNull ? ' NOT NULL' : ''}`;
}

/** createTableSql is CREATE TABLE for a shape, under its own name or another (a SQLite rebuild). */
function createTableSql(dialect: SqlDialect, shape: UserTableShape, name = userTableName(shape.id)) {
  const d = dialect.userTables;
  const columns = [
    d.idColumnSql,
    `"created_at" ${d.timestampColumnSql}`,
    `"updated_at" ${d.timestampColumnSql}`,
    ...Object.entries(shape.schema).map(([column, definition]) => columnDdl(dialect, column, definition)),
  ];
  return sql.raw(`CREATE TABLE ${quoteIdentifier(name)} (${columns.join(', ')})`);
}

/** uniqueIndexSql creates the unique index of a column (named by uniqueIndexName). */
export function uniqueIndexSql(tableId: number, column: string): SqlFragment {
  const index = quoteIdentifier(uniqueIndexName(tableId, column));
  return sql.raw(
    `CREATE UNIQUE INDEX ${index} ON ${quoteIdentifier(userTableName(tableId))} (${quoteIdentifier(column)})`,
  );
}

/** dropUniqueIndexSql drops a column's unique index if it exists. */
export function dropUniqueIndexSql(tableId: number, column: string): SqlFragment {
  return sql.raw(`DROP INDEX IF EXISTS ${quoteIdentifier(uniqueIndexName(tableId, column))}`);
}

function uniqueIndexes(shape: UserTableShape): SqlFragment[] {
  return Object.entries(shape.schema)
    .filter(([, definition]) => definition.unique)
    .map(([column]) => uniqueIndexSql(shape.id, column));
}

/** createUserTable creates the real table of a definition, the unique indexes of its columns and its row count. */
export async function createUserTable(db: Executor, dialect: SqlDialect, shape: UserTableShape): Promise<void> {
  await createTableSql(dialect, shape).execute(db);
  for (const index of uniqueIndexes(shape)) await index.execute(db);
  await syncColumnIndexes(db, shape.id, shape.schema);
  await resetRowCount(db, dialect, shape.id);
}

/** dropUserTable drops a definition's real table with its data and indexes (its row count reads 0 rows). */
export async function dropUserTable(db: Executor, tableId: number): Promise<void> {
  await sql`DROP TABLE IF EXISTS ${tableRef(tableId)}`.execute(db);
  await clearRowCount(db, tableId);
}

/** changeRequired sets or drops NOT NULL on a column; `after` is the table's shape once changed. */
export async function changeRequired(db: Executor, dialect: SqlDialect, after: UserTableShape, column: string) {
  await dialect.userTables.changeRequired(db, {
    table: userTableName(after.id),
    column,
    required: after.schema[column]?.required ?? false,
    createTable: (name) => createTableSql(dialect, after, name),
    columns: ['id', 'created_at', 'updated_at', ...Object.keys(after.schema)],
    indexes: uniqueIndexes(after),
  });
}

/** addColumn adds a nullable column (a required one is made NOT NULL by changeRequired afterwards). */
export async function addColumn(db: Executor, dialect: SqlDialect, tableId: number, column: string, type: ColumnType) {
  const ddl = columnDdl(dialect, column, { type, required: false, unique: false });
  await sql`ALTER TABLE ${tableRef(tableId)} ADD COLUMN ${sql.raw(ddl)}`.execute(db);
}

/**
 * createOwnerIndex indexes the owner column of a table's `own rows` rules (if not indexed already), so that the
 * rule is one indexed condition.
 */
export async function createOwnerIndex(db: Executor, tableId: number, column: string): Promise<void> {
  const index = quoteIdentifier(ownerIndexName(tableId));
  await sql
    .raw(`CREATE INDEX IF NOT EXISTS ${index} ON ${quoteIdentifier(userTableName(tableId))} (${quotedColumn(column)})`)
    .execute(db);
}

/** dropOwnerIndex drops a table's owner-column index if it exists. */
export async function dropOwnerIndex(db: Executor, tableId: number): Promise<void> {
  await sql.raw(`DROP INDEX IF EXISTS ${quoteIdentifier(ownerIndexName(tableId))}`).execute(db);
}

/** dropColumn drops a column and its indexes. */
export async function dropColumn(db: Executor, tableId: number, column: string): Promise<void> {
  await dropUniqueIndexSql(tableId, column).execute(db);
  await dropColumnIndex(db, tableId, column);
  await sql`ALTER TABLE ${tableRef(tableId)} DROP COLUMN ${columnRef(column)}`.execute(db);
}

/** renameColumn renames a column and re-creates its unique index under the new column's index name. */
export async function renameColumn(db: Executor, tableId: number, column: string, to: string, unique: boolean) {
  if (unique) await dropUniqueIndexSql(tableId, column).execute(db);
  await sql`ALTER TABLE ${tableRef(tableId)} RENAME COLUMN ${columnRef(column)} TO ${columnRef(to)}`.execute(db);
  if (unique) await uniqueIndexSql(tableId, to).execute(db);
}
