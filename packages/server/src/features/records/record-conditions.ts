import type { ColumnType } from '@basalt/shared';
import type { CellValue } from '../../db/column-types/column-type.js';
import { columnTypeOf } from '../../db/column-types/registry.js';
import type { SqlDialect } from '../../db/dialect/dialect.js';
import { JSON_PATH_LIMITS, type JsonPath } from '../../db/jsonb.js';
import { DEFAULT_CONFIG, EMULATED_CONFIGS, PG_TEXT_SEARCH_CONFIGS } from '../../db/text-search/ts-document.js';
import { buildTsQuery, TsQuerySyntaxError } from '../../db/text-search/ts-query.js';
import type { TableDefinition } from '../../db/user-tables.js';
import { type Condition, columnTypeIn, isJsonType, type OrderTerm, operandType } from '../../db/user-tables.js';
import { ApiError } from '../../http/errors.js';
import {
  invalidFilter,
  invalidJsonPath,
  invalidRegex,
  jsonPathNeedsJson,
  unknownFilterColumn,
} from './record-errors.js';

// Conditions arrive from every API (rest filters, public API ids, console calls). checkCondition refuses
// unknown columns (42703) and operators that do not fit a column's type, and converts values: a string for a
// non-text column is read as query-string text by the column type (`qty=gt.10` → 10; 22P02 when it does not
// convert), any other value must already be of the column's type. A leaf on a JSON path (`meta->>color`) reads
// text after a final `->>` and JSON after `->`, and is checked as a text or json column would be.

// Deeper trees are refused: no real filter nests this far, and the SQL builder recurses.
const MAX_DEPTH = 32;

function typeOf(table: TableDefinition, column: string): ColumnType {
  const type = typeof column === 'string' ? columnTypeIn(table, column) : null;
  if (type === null) throw unknownFilterColumn(table, String(column));
  return type;
}

/** pathText writes a field as PostgREST does, `meta->a->>b`, for messages. */
function pathText(column: string, path: JsonPath | undefined): string {
  return `${column}${(path ?? []).map((s) => `${s.arrow}${s.key}`).join('')}`;
}

/**
 * checkJsonPath refuses a JSON path that PostgreSQL would not follow, or not as SQLite does: on a column that
 * holds no JSON or after a `->>` step (42883), longer than a stored value can nest, with a NUL in a key or an
 * index outside PostgreSQL's `integer`. Keys are bound values: any other text, quotes included, is just a key.
 */
export function checkJsonPath(column: string, type: ColumnType, path: JsonPath): void {
  if (path.length === 0) return;
  const field = pathText(column, path);
  if (!isJsonType(type)) throw jsonPathNeedsJson(field, columnTypeOf(type).pgTypeName, path[0]?.arrow ?? '->');
  if (path.length > JSON_PATH_LIMITS.maxSteps) {
    throw invalidJsonPath(`A JSON path can have at most ${JSON_PATH_LIMITS.maxSteps} steps`, 'PGRST100');
  }
  path.forEach(({ arrow, key }, i) => {
    // The dialects write the arrow into SQL: only the two operators pass, whoever built the path.
    if ((arrow !== '->' && arrow !== '->>') || (typeof key !== 'string' && typeof key !== 'number')) {
      throw invalidJsonPath('A JSON path step is `->key` or `->>key`', 'PGRST100');
    }
    if (i > 0 && path[i - 1]?.arrow === '->>') throw jsonPathNeedsJson(field, 'text', arrow);
    if (typeof key === 'string' && key.includes('\0')) {
      throw invalidJsonPath('invalid byte sequence for encoding "UTF8": 0x00', '22021');
    }
    if (typeof key === 'number' && !(Number.isSafeInteger(key) && Math.abs(key) <= JSON_PATH_LIMITS.maxIndex)) {
      throw invalidJsonPath('integer out of range', '22003');
    }
  });
}

/** filterValue converts one filter value for a column type, or throws 22P02. */
function filterValue(type: ColumnType, value: CellValue): CellValue {
  if (value === null) return null;
  const definition = columnTypeOf(type);
  const parsed =
    typeof value === 'string' && type !== 'text'
      ? definition.parseFilterValue(value)
      : definition.parseInput(value, { from: 'json' });
  if (!parsed.ok) {
    const message = parsed.message.startsWith('invalid input syntax')
      ? parsed.message
      : `invalid input syntax for type ${definition.pgTypeName}: ${JSON.stringify(value)}`;
    throw invalidFilter(message, '22P02');
  }
  return parsed.value;
}

// A regular expression is refused before any query when the engine will not run it (on SQLite: not RE2 syntax,
// e.g. a backreference, which a linear-time engine cannot match; on both: longer than MAX_REGEX_LENGTH).
function checkPattern(dialect: SqlDialect, condition: Extract<Condition, { kind: 'pattern' }>) {
  const { pattern, op } = condition;
  if (typeof pattern !== 'string') throw invalidFilter('A pattern must be text', '22P02');
  if (op !== 'match' && op !== 'imatch') return;
  const refusal = dialect.userTables.regexRefusal(pattern, op === 'imatch');
  if (refusal) throw invalidRegex(refusal.message, refusal.hint);
}

const SEARCH_OPERATORS = new Set(['fts', 'plfts', 'phfts', 'wfts']);

// A full-text filter needs text, a configuration PostgreSQL has (on SQLite: one the emulation reads alike) and,
// for fts, a to_tsquery text that parses: refused here, with PostgreSQL's codes, on both engines alike.
function checkSearch(dialect: SqlDialect, type: ColumnType, condition: Extract<Condition, { kind: 'search' }>) {
  const { op, config, query } = condition;
  const field = pathText(condition.column, condition.path);
  if (!SEARCH_OPERATORS.has(op)) throw invalidFilter('A full-text operator is fts, plfts, phfts or wfts', 'PGRST100');
  if (type !== 'text') {
    throw invalidFilter(`operator ${op} needs a text column; "${field}" is ${type} (${columnTypeOf(type).pgTypeName})`);
  }
  if (typeof query !== 'string' || (config !== null && typeof config !== 'string')) {
    throw invalidFilter('A full-text query must be text', '22P02');
  }
  if (query.includes('\0')) throw invalidFilter('invalid byte sequence for encoding "UTF8": 0x00', '22021');
  if (config !== null && !PG_TEXT_SEARCH_CONFIGS.has(config)) {
    throw invalidFilter(`text search configuration "${config}" does not exist`, '42704');
  }
  if (config !== null && dialect.name === 'sqlite' && !EMULATED_CONFIGS.has(config)) {
    throw new ApiError(400, '0A000', `text search configuration "${config}" is not available on SQLite`, {
      hint: 'Use english or simple, or run Basalt on PostgreSQL',
    });
  }
  try {
    buildTsQuery(op, query, config ?? DEFAULT_CONFIG);
  } catch (error) {
    if (error instanceof TsQuerySyntaxError) throw invalidFilter(error.message, '42601');
    throw error;
  }
}

function checkLeaf(dialect: SqlDialect, table: TableDefinition, condition: Condition): Condition {
  if (!('column' in condition)) return condition;
  const columnType = typeOf(table, condition.column);
  if (condition.path) checkJsonPath(condition.column, columnType, condition.path);
  const type = operandType(table, condition.column, condition.path) ?? columnType;
  switch (condition.kind) {
    case 'compare':
      // JSON values compare in jsonb's order (`meta->size=gt.5`), as on PostgreSQL.
      return { ...condition, value: filterValue(type, condition.value) };
    case 'pattern':
      if (type !== 'text') {
        const typeName = columnTypeOf(type).pgTypeName;
        throw invalidFilter(
          `operator ${condition.op} needs a text column; "${pathText(condition.column, condition.path)}" is ${type} (${typeName})`,
        );
      }
      checkPattern(dialect, condition);
      return condition;
    case 'is':
      if (typeof condition.value === 'boolean' && type !== 'boolean') {
        throw invalidFilter(
          `is.${condition.value} needs a boolean column; "${pathText(condition.column, condition.path)}" is ${type}`,
        );
      }
      return condition;
    case 'in':
      if (!Array.isArray(condition.values)) throw invalidFilter('in needs a list of values', '22P02');
      return { ...condition, values: condition.values.map((v) => filterValue(type, v)) };
    case 'contains': {
      if (!isJsonType(type) || (condition.op === 'ov' && type !== 'array')) {
        throw invalidFilter(
          `operator ${condition.op} needs ${condition.op === 'ov' ? 'an array' : 'a json or array'} column; "${pathText(condition.column, condition.path)}" is ${type}`,
        );
      }
      const value = filterValue(type === 'array' || condition.op === 'ov' ? 'array' : 'json', condition.value);
      return { ...condition, value: value ?? null };
    }
    case 'search':
      checkSearch(dialect, type, condition);
      return condition;
  }
}

/** checkCondition validates a condition tree against a table and returns it with converted values. */
export function checkCondition(
  dialect: SqlDialect,
  table: TableDefinition,
  condition: Condition,
  depth = 0,
): Condition {
  if (depth > MAX_DEPTH) throw invalidFilter(`Filters cannot be nested more than ${MAX_DEPTH} levels deep`, 'PGRST100');
  switch (condition.kind) {
    case 'and':
    case 'or':
      return {
        kind: condition.kind,
        conditions: condition.conditions.map((c) => checkCondition(dialect, table, c, depth + 1)),
      };
    case 'not':
      return { kind: 'not', condition: checkCondition(dialect, table, condition.condition, depth + 1) };
    case 'exists':
      // Built by the data API's embedding, which checks the other table's part itself.
      return condition;
    default:
      return checkLeaf(dialect, table, condition);
  }
}

/** checkOrder validates order terms: known columns, asc|desc, nulls first|last. */
export function checkOrder(table: TableDefinition, order: OrderTerm[]): OrderTerm[] {
  return order.map((term) => {
    const type = typeOf(table, term.column);
    if (term.path) checkJsonPath(term.column, type, term.path);
    if (term.direction !== 'asc' && term.direction !== 'desc')
      throw invalidFilter('Order must be asc or desc', 'PGRST100');
    if (term.nulls !== undefined && term.nulls !== 'first' && term.nulls !== 'last') {
      throw invalidFilter('Nulls must be first or last', 'PGRST100');
    }
    return term;
  });
}

/** recordIdCondition selects one record by id. */
export function recordIdCondition(id: number): Condition {
  return { kind: 'compare', column: 'id', op: 'eq', value: id };
}
