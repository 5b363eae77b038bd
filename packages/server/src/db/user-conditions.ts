import type { ColumnType } from '@basalt/shared';
import type { CellValue, JsonValue } from './column-types/column-type.js';
import { columnTypeOf } from './column-types/registry.js';
import type { SqlDialect, StoredValue } from './dialect/dialect.js';
import { quoteIdentifier } from './identifiers.js';
import type { JsonPath } from './jsonb.js';
import type { SqlOperand, SqlText } from './sql-text.js';
import { searchIndexName } from './text-search/search-index.js';
import { DEFAULT_CONFIG } from './text-search/ts-document.js';
import { columnTypeIn, quotedColumn, quotedTable, type TableDefinition, type UserTableShape } from './user-tables.js';

// Conditions and order of user-table reads: the one filter representation of every API (rest, public,
// console) and the SQL it compiles to. Split from user-tables.ts (identifiers and DDL); what the engines
// spell differently is in db/dialect/*.ts (`dialect.userTables`). Values are typed API values (the records
// service converts query-string text with the column type first).

/** ComparisonOperator compares a column with one value; isdistinct is `IS DISTINCT FROM` (NULL-safe). */
export type ComparisonOperator = 'eq' | 'neq' | 'gt' | 'gte' | 'lt' | 'lte' | 'isdistinct';
/** PatternOperator: like/ilike take SQL patterns (`%`, `_`, `\` escapes); match/imatch regular expressions. */
export type PatternOperator = 'like' | 'ilike' | 'match' | 'imatch';
/** SearchOperator: full-text search with to_tsquery, plainto_, phraseto_ or websearch_to_tsquery (text-search/). */
export type { SearchOperator } from './text-search/ts-query.js';

import type { SearchOperator } from './text-search/ts-query.js';
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
  | { kind: 'search'; column: string; path?: JsonPath; op: SearchOperator; config: string | null; query: string }
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

/**
 * keysEqualSql is `inner = outer` between two tables' key columns (an id, or a reference column holding one), as
 * the inner table's index serves it: an id compared with a reference goes through the dialect's idOfNumberSql.
 */
export function keysEqualSql(
  dialect: SqlDialect,
  inner: string,
  innerColumn: string,
  outer: string,
  outerColumn: string,
): string {
  if (innerColumn === 'id' && outerColumn !== 'id') return `${inner} = ${dialect.userTables.idOfNumberSql(outer)}`;
  return `${inner} = ${outer}`;
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
  /** via orders by a column of the row this row references (`order=author(name)`): `column` is the other table's. */
  via?: OrderVia;
}

/**
 * OrderVia is the row a reference column points at (`table.id = reference`), read in a subquery named `alias`,
 * under `where` (the other table's access rule): a row the caller may not read sorts as NULL.
 */
export interface OrderVia {
  table: TableDefinition;
  reference: string;
  alias: string;
  where?: Condition;
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
  negated = false,
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
        writeCondition(out, dialect, shape, c, scope, negated);
      });
      out.raw(')');
      return;
    }
    case 'not':
      out.raw('NOT (');
      writeCondition(out, dialect, shape, condition.condition, scope, !negated);
      out.raw(')');
      return;
    case 'exists': {
      // Aliased, so that a table related to itself (a tree) is told apart from the outer row.
      const alias = quoteIdentifier(condition.alias);
      const outer = scope ?? quotedTable(shape.id);
      out.raw(`EXISTS (SELECT 1 FROM ${quotedTable(condition.table.id)} AS ${alias} WHERE `);
      const { innerColumn, outerColumn } = condition;
      out.raw(
        keysEqualSql(
          dialect,
          `${alias}.${quotedColumn(innerColumn)}`,
          innerColumn,
          `${outer}.${quotedColumn(outerColumn)}`,
          outerColumn,
        ),
      );
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
    case 'search': {
      // Outside a NOT, a searchable column's index may be asked first (db/text-search/search-index.ts).
      const indexed = !negated && !condition.path?.length && shape.schema[condition.column]?.search === true;
      const index = indexed ? searchIndexName(dialect.name, shape.id, condition.column) : null;
      d.textSearchSql(out, column, condition.op, condition.config ?? DEFAULT_CONFIG, condition.query, index);
      return;
    }
  }
}

// `(SELECT a."name" FROM "t_2" AS a WHERE a."id" = "t_1"."author_id" AND (rule))`: one row at most (by id).
function writeOrderVia(out: SqlText, dialect: SqlDialect, outer: string, column: string, via: OrderVia) {
  const type = columnTypeIn(via.table, column);
  if (type === null || isJsonType(type)) throw new Error(`writeOrder: cannot order by ${JSON.stringify(column)}`);
  const alias = quoteIdentifier(via.alias);
  out.raw(`(SELECT ${alias}.${quotedColumn(column)} FROM ${quotedTable(via.table.id)} AS ${alias} WHERE `);
  out.raw(keysEqualSql(dialect, `${alias}."id"`, 'id', `${outer}.${quotedColumn(via.reference)}`, via.reference));
  if (via.where) {
    out.raw(' AND (');
    writeCondition(out, dialect, via.table, via.where, alias);
    out.raw(')');
  }
  out.raw(')');
}

/**
 * writeOrder appends ORDER BY terms with explicit NULLS FIRST/LAST.
 * JSON values (json and array columns, `->` paths) sort in jsonb's order on both engines. `scope` is the (quoted)
 * name the table's rows go by, when not the table's own (a related order's subquery refers to it).
 */
export function writeOrder(
  out: SqlText,
  dialect: SqlDialect,
  shape: UserTableShape,
  order: OrderTerm[],
  scope?: string,
): void {
  order.forEach((term, i) => {
    const nulls = term.nulls ?? (term.direction === 'asc' ? 'last' : 'first');
    if (i > 0) out.raw(', ');
    if (term.via) writeOrderVia(out, dialect, scope ?? quotedTable(shape.id), term.column, term.via);
    else {
      const type = operandType(shape, term.column, term.path);
      if (type === null) throw new Error(`writeOrder: unknown column ${JSON.stringify(term.column)}`);
      const operand = operandSql(dialect, term.column, term.path);
      out.operand(isJsonType(type) ? dialect.userTables.jsonSortSql(operand) : operand);
    }
    out.raw(` ${term.direction === 'asc' ? 'ASC' : 'DESC'} ${nulls === 'first' ? 'NULLS FIRST' : 'NULLS LAST'}`);
  });
}
