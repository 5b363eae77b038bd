import { parseArrayLiteral } from '../../db/column-types/array-literal.js';
import { Cursor, field, fieldName, jsonPath, ParseFailure, quotedValue, withTarget } from './rest-query.cursor.js';
import { malformedArrayLiteral } from './rest-query.errors.js';
import type {
  ComparisonOperator,
  ContainmentOperator,
  FieldRef,
  Filter,
  IsValue,
  LogicTree,
  Operation,
  PatternOperator,
  QuantifiableOperator,
  SearchOperator,
} from './rest-query.types.js';

// Filters (`qty=gte.5`, `id=not.in.(1,2)`) and logic trees (`or=(a.eq.1,and(b.is.null,c.lt.2))`), after
// PostgREST's pOpExpr and pLogicTree. Outside a tree the value is everything after the operator's dot; inside
// a tree it ends at `,` or `)` unless double-quoted, or it is a `{…}` array literal kept whole.

const OPERATOR = 'operator (eq, gt, ...)';
const COMPARISON: readonly ComparisonOperator[] = ['eq', 'neq', 'gt', 'gte', 'lt', 'lte'];
const PATTERN: readonly PatternOperator[] = ['like', 'ilike', 'match', 'imatch'];
const QUANTIFIABLE: readonly QuantifiableOperator[] = [
  'eq',
  'gt',
  'gte',
  'lt',
  'lte',
  'like',
  'ilike',
  'match',
  'imatch',
];
const CONTAINMENT: readonly ContainmentOperator[] = ['cs', 'cd', 'ov'];
const FULL_TEXT: readonly SearchOperator[] = ['fts', 'plfts', 'phfts', 'wfts'];
// `fts(english).…`: a configuration name, as PostgREST reads it (letters, digits and `_`).
const SEARCH_CONFIG = /^\(([A-Za-z0-9_]*)\)/;
const RANGE = new Set(['sl', 'sr', 'nxr', 'nxl', 'adj']);
const IS_VALUES: IsValue[] = ['null', 'not_null', 'true', 'false', 'unknown'];
// Deeper trees are refused so that a hostile query cannot exhaust the stack; real ones nest a few levels.
const MAX_TREE_DEPTH = 32;

type ValueMode = 'top' | 'tree';

/** pick returns the operator of a list that the word names, typed as that list's member. */
function pick<T extends string>(list: readonly T[], word: string): T | undefined {
  return list.find((op) => op === word);
}

/** likePattern turns PostgREST's `*` wildcard into SQL's `%` (for like and ilike only). */
function likePattern(op: string, value: string): string {
  return op === 'like' || op === 'ilike' ? value.replaceAll('*', '%') : value;
}

// Inside a tree a value is a quoted string (when a `,` or `)` follows), a `{…}` literal, or text up to `,`/`)`.
function treeValue(c: Cursor): string {
  const start = c.pos;
  if (c.peek() === '"') {
    try {
      const value = quotedValue(c);
      if (c.atEnd() || c.peek() === ',' || c.peek() === ')') return value;
    } catch (error) {
      if (!(error instanceof ParseFailure)) throw error;
    }
    c.pos = start;
  }
  if (c.peek() === '{') {
    const close = c.text.indexOf('}', c.pos);
    const inner = close === -1 ? '' : c.text.slice(c.pos + 1, close);
    if (close !== -1 && !inner.includes('{')) {
      c.pos = close + 1;
      return c.text.slice(start, c.pos);
    }
  }
  while (!c.atEnd() && c.peek() !== ',' && c.peek() !== ')') c.pos++;
  return c.text.slice(start, c.pos);
}

function singleValue(c: Cursor, mode: ValueMode): string {
  if (mode === 'tree') return treeValue(c);
  const value = c.text.slice(c.pos);
  c.pos = c.text.length;
  return value;
}

/** listValue reads `(a,"b,c",d)` for `in`: quoted elements lose their quotes and escapes. */
function listValue(c: Cursor): string[] {
  c.skipSpaces();
  c.expect('(');
  c.skipSpaces();
  if (c.peek() === ')') {
    c.pos++;
    c.skipSpaces();
    return [];
  }
  const values: string[] = [];
  for (;;) {
    const start = c.pos;
    let element: string | null = null;
    if (c.peek() === '"') {
      try {
        const quoted = quotedValue(c);
        if (c.peek() === ',' || c.peek() === ')') element = quoted;
      } catch (error) {
        if (!(error instanceof ParseFailure)) throw error;
      }
      if (element === null) c.pos = start;
    }
    if (element === null) {
      while (!c.atEnd() && c.peek() !== ',' && c.peek() !== ')') c.pos++;
      element = c.text.slice(start, c.pos);
    }
    values.push(element);
    if (c.peek() === ',') {
      c.pos++;
      continue;
    }
    if (c.peek() === ')') break;
    c.fail(['","', '")"']);
  }
  c.pos++;
  c.skipSpaces();
  return values;
}

function isValue(c: Cursor): IsValue {
  const rest = c.text.slice(c.pos).toLowerCase();
  // not_null before null would not matter; longest first keeps `is.not_null` from reading as `not`.
  const found = [...IS_VALUES].sort((a, b) => b.length - a.length).find((v) => rest.startsWith(v));
  if (!found) c.fail(['isVal: (null, not_null, true, false, unknown)']);
  c.pos += found.length;
  return found;
}

function quantifiedValues(value: string, op: string): string[] {
  const literal = parseArrayLiteral(value);
  if (!literal) throw malformedArrayLiteral(value);
  return literal.map((e) => likePattern(op, e.text));
}

/** opExpr reads `[not.]op.value`; in a tree the value ends at `,` or `)`. */
function opExpr(c: Cursor, mode: ValueMode): { negated: boolean; operation: Operation } {
  const negated = c.startsWith('not.');
  if (negated) c.pos += 4;
  const start = c.pos;
  const word = /^[a-z]+/.exec(c.text.slice(start))?.[0] ?? '';
  const next = c.text[start + word.length];
  const failOperator = (): never => {
    if (negated) c.fail([OPERATOR], start);
    c.failKeywords(['not'], start, [OPERATOR]);
  };
  const afterDot = () => {
    c.pos = start + word.length;
    c.expect('.', 'delimiter (.)');
  };
  if (word === 'in' && next === '.') {
    afterDot();
    return { negated, operation: { kind: 'in', values: listValue(c) } };
  }
  if (word === 'is' && next === '.') {
    afterDot();
    return { negated, operation: { kind: 'is', value: isValue(c) } };
  }
  if (word === 'isdistinct' && next === '.') {
    afterDot();
    return { negated, operation: { kind: 'isdistinct', value: singleValue(c, mode) } };
  }
  const search = pick(FULL_TEXT, word);
  if (search && (next === '.' || next === '(')) {
    c.pos = start + word.length;
    let config: string | null = null;
    if (next === '(') {
      const m = SEARCH_CONFIG.exec(c.text.slice(c.pos));
      if (!m) c.fail(['"("', 'delimiter (.)']);
      config = m[1] ?? '';
      c.pos += m[0].length;
    }
    c.expect('.', 'delimiter (.)');
    return { negated, operation: { kind: 'search', op: search, config, value: singleValue(c, mode) } };
  }
  if (RANGE.has(word) && next === '.') c.unsupported(`Range operators (${word}) are not supported`, start);
  const containment = pick(CONTAINMENT, word);
  if (containment && next === '.') {
    afterDot();
    return { negated, operation: { kind: 'contains', op: containment, value: singleValue(c, mode) } };
  }
  const quantifiable = pick(QUANTIFIABLE, word);
  if (quantifiable && next === '(') {
    c.pos = start + word.length;
    const quantifier = c.startsWith('(any)') ? 'any' : c.startsWith('(all)') ? 'all' : null;
    if (quantifier === null) c.failKeywords(['(any)', '(all)']);
    c.pos += 5;
    c.expect('.', 'delimiter (.)');
    const values = quantifiedValues(singleValue(c, mode), quantifiable);
    return { negated, operation: { kind: 'quantified', op: quantifiable, quantifier, values } };
  }
  const comparison = pick(COMPARISON, word);
  const pattern = pick(PATTERN, word);
  if ((comparison || pattern) && next === '.') {
    afterDot();
    const value = singleValue(c, mode);
    if (comparison) return { negated, operation: { kind: 'compare', op: comparison, value } };
    if (pattern) return { negated, operation: { kind: 'pattern', op: pattern, value: likePattern(pattern, value) } };
  }
  // A known operator without its dot: say what must follow it.
  if (comparison || pattern || containment || search || word === 'in' || word === 'is') {
    c.fail(quantifiable || search ? ['"("', 'delimiter (.)'] : ['delimiter (.)'], start + word.length);
  }
  return failOperator();
}

function expectEnd(c: Cursor): void {
  if (!c.atEnd()) c.fail(['end of input']);
}

// A comparison at the start of a top-level filter's value; the rest of the value is its operand.
const PLAIN_COMPARISON = /^(eq|neq|gte?|lte?)\./;

// ASCII characters of an identifier (rest-query.cursor.ts), without the space, which the parser trims.
const PLAIN_KEY = /^[A-Za-z0-9_$]+$/;

/** parseFilterKey reads a filter's key: a column with an optional JSON path; `a.b` (embedding) is refused. */
export function parseFilterKey(key: string): FieldRef {
  // A plain column name (the usual key) is what the parser below would return for it, without a cursor.
  if (PLAIN_KEY.test(key)) return { column: key, jsonPath: [] };
  return withTarget('tree path', key, () => {
    const c = new Cursor(key);
    const column = fieldName(c);
    if (c.peek() === '.') c.unsupported('Filters on embedded resources are not supported');
    const path = jsonPath(c);
    expectEnd(c);
    return { column, jsonPath: path };
  });
}

/** parseFilter reads one top-level filter parameter, `key=value`. */
export function parseFilter(key: string, value: string): Filter {
  const fieldRef = parseFilterKey(key);
  // `eq.5` and the other comparisons (the usual filter): what opExpr returns for them, without a cursor.
  const comparison = PLAIN_COMPARISON.exec(value);
  if (comparison) {
    const op = comparison[1] as ComparisonOperator;
    return { field: fieldRef, negated: false, operation: { kind: 'compare', op, value: value.slice(op.length + 1) } };
  }
  return withTarget('filter', value, () => {
    const c = new Cursor(value);
    const { negated, operation } = opExpr(c, 'top');
    expectEnd(c);
    return { field: fieldRef, negated, operation };
  });
}

function logicFilter(c: Cursor): LogicTree {
  const fieldRef = field(c);
  c.expect('.', 'delimiter (.)');
  const { negated, operation } = opExpr(c, 'tree');
  return { kind: 'filter', filter: { field: fieldRef, negated, operation } };
}

function logicOperator(
  c: Cursor,
  start: number,
  filterError: ParseFailure | null,
): { kind: 'and' | 'or'; negated: boolean } {
  const negated = c.startsWith('not.');
  if (negated) c.pos += 4;
  const kind = c.startsWith('and') ? 'and' : c.startsWith('or') ? 'or' : null;
  if (kind === null) {
    if (negated) c.fail(['logic operator (and, or)']);
    // Neither a filter nor an operator: report the error that got further, as Parsec merges them.
    if (filterError && filterError.pos > start) throw filterError;
    const expected = [...(filterError?.expected ?? []), 'negation operator (not)', 'logic operator (and, or)'];
    c.fail(expected, start);
  }
  c.pos += kind.length;
  return { kind, negated };
}

function logicTree(c: Cursor, depth: number, allowFilter: boolean): LogicTree {
  if (depth > MAX_TREE_DEPTH) c.unsupported(`Logic trees can be nested at most ${MAX_TREE_DEPTH} levels deep`);
  const start = c.pos;
  let filterError: ParseFailure | null = null;
  if (allowFilter) {
    try {
      return logicFilter(c);
    } catch (error) {
      if (!(error instanceof ParseFailure)) throw error;
      filterError = error;
      c.pos = start;
    }
  }
  const { kind, negated } = logicOperator(c, start, filterError);
  c.skipSpaces();
  c.expect('(');
  const children: LogicTree[] = [];
  for (;;) {
    c.skipSpaces();
    children.push(logicTree(c, depth + 1, true));
    c.skipSpaces();
    if (c.peek() !== ',') break;
    c.pos++;
  }
  c.expect(')');
  c.skipSpaces();
  return { kind, negated, children };
}

/** LogicKey is a logic-tree parameter name. */
export type LogicKey = 'or' | 'and' | 'not.or' | 'not.and';

/**
 * parseLogicTree reads `or=(…)` and friends. Like PostgREST it parses the key and value together
 * (`or(…)`), so error columns count from the key's first character.
 */
export function parseLogicTree(key: LogicKey, value: string): LogicTree {
  return withTarget('logic tree', value, () => {
    const c = new Cursor(`${key}${value}`);
    const tree = logicTree(c, 0, false);
    expectEnd(c);
    return tree;
  });
}
