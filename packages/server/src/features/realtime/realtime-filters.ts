import type { ColumnType } from '@basalt/shared';
import type { CellValue } from '../../db/column-types/column-type.js';
import { columnTypeIn, type UserTableShape } from '../../db/user-tables.js';

// The `filter` of a postgres_changes binding, as supabase-js writes it: `column=op.value`, several joined by commas
// (all must hold), `not.` before an operator negates it, values with a comma, parenthesis, quote or backslash
// (or spaces around) are double-quoted with backslash escapes, and `in.(a,b,"c,d")` lists values. The operators
// are eq, neq, lt, lte, gt, gte, in and is (null, true, false). A filter is checked once, at join, against the
// table's columns, and then evaluated in memory against each changed record: values compare as the column's type
// (numbers as numbers, dates as instants, booleans, text by code units); a NULL value matches nothing but `is.null`,
// as in SQL. json and array columns cannot be filtered on.

/** FilterOperator is an operator a realtime filter may use. */
export type FilterOperator = 'eq' | 'neq' | 'lt' | 'lte' | 'gt' | 'gte' | 'in' | 'is';

/** FilterTerm is one `column=[not.]op.value` of a filter. */
export interface FilterTerm {
  column: string;
  op: FilterOperator;
  negated: boolean;
  /** The value as text (`in`: each listed value). */
  values: string[];
}

/** FilterError is a filter that cannot be read or does not fit the table. */
export class FilterError extends Error {}

const OPERATORS = new Set<string>(['eq', 'neq', 'lt', 'lte', 'gt', 'gte', 'in', 'is']);
const COLUMN = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;
// A comma ends an unquoted value only when another term follows it; so `name=eq.a,b` keeps its comma, as older
// clients wrote it.
const NEXT_TERM = /^,\s*(not\.)?[A-Za-z_][A-Za-z0-9_]*=/;
const MAX_FILTER_LENGTH = 4096;
const MAX_TERMS = 16;
const MAX_IN_VALUES = 100;

/** parseFilter reads a filter string into its terms; throws FilterError. */
export function parseFilter(text: string): FilterTerm[] {
  if (text.length > MAX_FILTER_LENGTH)
    throw new FilterError(`The filter is longer than ${MAX_FILTER_LENGTH} characters`);
  const terms: FilterTerm[] = [];
  let rest = text.trim();
  while (rest.length > 0) {
    if (terms.length >= MAX_TERMS) throw new FilterError(`A filter has at most ${MAX_TERMS} conditions`);
    const eq = rest.indexOf('=');
    if (eq < 1) throw new FilterError(`Expected column=operator.value in the filter "${text}"`);
    const column = rest.slice(0, eq).trim();
    if (!COLUMN.test(column)) throw new FilterError(`"${column}" is not a column name`);
    rest = rest.slice(eq + 1);
    let negated = false;
    if (rest.startsWith('not.')) {
      negated = true;
      rest = rest.slice(4);
    }
    const dot = rest.indexOf('.');
    const op = dot < 0 ? rest : rest.slice(0, dot);
    if (!OPERATORS.has(op))
      throw new FilterError(`Unsupported filter operator "${op}": use eq, neq, lt, lte, gt, gte, in or is`);
    rest = rest.slice(dot + 1);
    let values: string[];
    [values, rest] = op === 'in' ? readList(rest) : readValue(rest);
    if (op === 'is' && !['null', 'true', 'false'].includes((values[0] ?? '').toLowerCase())) {
      throw new FilterError('is takes null, true or false');
    }
    terms.push({ column, op: op as FilterOperator, negated, values });
    if (rest.length > 0) {
      if (!rest.startsWith(',')) throw new FilterError(`Unexpected "${rest.slice(0, 20)}" in the filter`);
      rest = rest.slice(1).trimStart();
      if (rest.length === 0) throw new FilterError('The filter ends with a comma');
    }
  }
  if (terms.length === 0) throw new FilterError('The filter is empty');
  return terms;
}

// A double-quoted value: up to the closing quote, with \" and \\ escapes.
function readQuoted(text: string): [string, string] {
  let value = '';
  for (let i = 1; i < text.length; i++) {
    const c = text[i] as string;
    if (c === '\\' && i + 1 < text.length) {
      value += text[++i];
    } else if (c === '"') {
      return [value, text.slice(i + 1)];
    } else {
      value += c;
    }
  }
  throw new FilterError('A quoted value in the filter is not closed');
}

function readValue(text: string): [string[], string] {
  if (text.startsWith('"')) {
    const [value, rest] = readQuoted(text);
    return [[value], rest];
  }
  for (let i = 0; i < text.length; i++) {
    if (text[i] === ',' && NEXT_TERM.test(text.slice(i))) return [[text.slice(0, i)], text.slice(i)];
  }
  return [[text], ''];
}

function readList(text: string): [string[], string] {
  if (!text.startsWith('(')) throw new FilterError('in takes a list: in.(a,b,c)');
  const values: string[] = [];
  let rest = text.slice(1);
  for (;;) {
    if (values.length >= MAX_IN_VALUES) throw new FilterError(`in takes at most ${MAX_IN_VALUES} values`);
    let value: string;
    if (rest.startsWith('"')) {
      [value, rest] = readQuoted(rest);
    } else {
      const end = rest.search(/[,)]/);
      if (end < 0) throw new FilterError('The list of in is not closed');
      value = rest.slice(0, end).trim();
      rest = rest.slice(end);
    }
    values.push(value);
    if (rest.startsWith(')')) return [values, rest.slice(1)];
    if (!rest.startsWith(',')) throw new FilterError('The list of in is not closed');
    rest = rest.slice(1);
  }
}

const FILTERABLE: ReadonlySet<ColumnType> = new Set(['text', 'number', 'boolean', 'date']);

/** checkFilter makes sure every term names a column of the table that can be filtered on; throws FilterError. */
export function checkFilter(terms: FilterTerm[], table: UserTableShape): void {
  for (const term of terms) {
    const type = columnTypeIn(table, term.column);
    if (type === null) throw new FilterError(`The table has no column "${term.column}"`);
    if (!FILTERABLE.has(type))
      throw new FilterError(`Column "${term.column}" is ${type}: filters take text, number, boolean and date columns`);
    if (term.op !== 'is' && type !== 'text') {
      for (const value of term.values) {
        if (comparable(type, value) === undefined)
          throw new FilterError(`"${value}" is not a ${type} for ${term.column}`);
      }
    }
  }
}

/** EqKey is a filter's first `eq` term, as the index of channels finds it: column, its type then, and the value. */
export interface EqKey {
  column: string;
  type: ColumnType;
  value: string;
}

/**
 * eqKeyOf is the first plain (not negated) `eq` term of a checked filter, or null. A record can pass the filter
 * only if its column compares equal to that value, so a change need only visit the channels under its own value.
 */
export function eqKeyOf(terms: FilterTerm[], table: UserTableShape): EqKey | null {
  for (const term of terms) {
    if (term.op !== 'eq' || term.negated) continue;
    const type = columnTypeIn(table, term.column);
    const value = type === null ? undefined : comparable(type, term.values[0] ?? '');
    if (type !== null && value !== undefined) return { column: term.column, type, value: String(value) };
  }
  return null;
}

/** eqValueOf is a record's value of a column as eqKeyOf writes a filter's (undefined: no `eq` can match it). */
export function eqValueOf(key: Omit<EqKey, 'value'>, record: Record<string, unknown> | null): string | undefined {
  if (record === null || !Object.hasOwn(record, key.column)) return undefined;
  const value = comparable(key.type, record[key.column] as CellValue);
  return value === undefined ? undefined : String(value);
}

// A value as the column type compares it; undefined when the text is not one.
function comparable(type: ColumnType, value: CellValue | string): number | string | boolean | undefined {
  if (value === null || value === undefined) return undefined;
  switch (type) {
    case 'number': {
      const n =
        typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
      return Number.isFinite(n) ? n : undefined;
    }
    case 'boolean':
      if (typeof value === 'boolean') return value;
      return value === 'true' ? true : value === 'false' ? false : undefined;
    case 'date': {
      const t = typeof value === 'string' ? Date.parse(value) : NaN;
      return Number.isNaN(t) ? undefined : t;
    }
    default:
      return typeof value === 'string' ? value : undefined;
  }
}

/** matchesFilter tells whether a record passes every term (a record without the column fails). */
export function matchesFilter(terms: FilterTerm[], table: UserTableShape, record: Record<string, unknown>): boolean {
  for (const term of terms) {
    if (matchesTerm(term, table, record) === term.negated) return false;
  }
  return true;
}

function matchesTerm(term: FilterTerm, table: UserTableShape, record: Record<string, unknown>): boolean {
  const type = columnTypeIn(table, term.column);
  if (type === null || !Object.hasOwn(record, term.column)) return term.negated;
  const raw = record[term.column] as CellValue;
  if (term.op === 'is') {
    const wanted = (term.values[0] ?? '').toLowerCase();
    return wanted === 'null' ? raw === null : raw === (wanted === 'true');
  }
  const value = comparable(type, raw);
  // NULL (or a value that is not of the type) compares as unknown: neither the term nor its negation holds.
  if (value === undefined) return term.negated;
  if (term.op === 'in') return term.values.some((v) => comparable(type, v) === value);
  const other = comparable(type, term.values[0] ?? '');
  if (other === undefined) return term.negated;
  switch (term.op) {
    case 'eq':
      return value === other;
    case 'neq':
      return value !== other;
    case 'lt':
      return value < other;
    case 'lte':
      return value <= other;
    case 'gt':
      return value > other;
    default:
      return value >= other;
  }
}
