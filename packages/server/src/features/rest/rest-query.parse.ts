import { negativeLimit, parseError } from './rest-query.errors.js';
import { type LogicKey, parseFilter, parseLogicTree } from './rest-query.filters.js';
import {
  checkProfile,
  type HeaderRange,
  lowerCased,
  parseAccept,
  parsePrefer,
  parseRangeHeader,
  type RestHeaders,
  readHeader,
} from './rest-query.headers.js';
import { parseColumnList, parseOrder, parseSelect } from './rest-query.select.js';
import type { EmbedParams, Filter, LogicTree, RestQuery, RestRange } from './rest-query.types.js';

// The entry point of the data API's request parser: query string and headers in, a typed RestQuery out, or
// a RestQueryError with PostgREST's status, code and texts. Pure: no schema, no database.

const LOGIC_KEYS: readonly LogicKey[] = ['or', 'and', 'not.or', 'not.and'];
type SingleKey = 'select' | 'order' | 'limit' | 'offset' | 'on_conflict' | 'columns';
// `comments.limit`, `authors.name`, `posts.comments.order`: a dotted path of embeds, then what applies to it.
const EMBEDDED_KEY = /^((?:[A-Za-z_][A-Za-z0-9_]*\.)+)([^.].*)$/;

/** decodeComponent decodes form encoding (`+` is a space); a malformed `%` escape is kept as written. */
function decodeComponent(text: string): string {
  // Most keys and many values need no decoding; decodeURIComponent is the parser's largest cost otherwise.
  if (!text.includes('%') && !text.includes('+')) return text;
  const spaced = text.replaceAll('+', ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
      try {
        return decodeURIComponent(run);
      } catch {
        return run;
      }
    });
  }
}

/**
 * queryPairs lists a query string's parameters in order, decoded. A bare key without `=` is skipped, as
 * PostgREST skips parameters without a value; `key=` is kept with an empty value.
 */
export function queryPairs(query: string | URLSearchParams): Array<[string, string]> {
  if (typeof query !== 'string') return [...query.entries()];
  const pairs: Array<[string, string]> = [];
  let start = query.startsWith('?') ? 1 : 0;
  while (start <= query.length) {
    let end = query.indexOf('&', start);
    if (end === -1) end = query.length;
    const eq = query.indexOf('=', start);
    if (eq !== -1 && eq < end) {
      pairs.push([decodeComponent(query.slice(start, eq)), decodeComponent(query.slice(eq + 1, end))]);
    }
    start = end + 1;
  }
  return pairs;
}

function isLogicKey(key: string): key is LogicKey {
  return (LOGIC_KEYS as readonly string[]).includes(key);
}

// limit and offset are non-negative integers. PostgREST ignores other text; Basalt answers PGRST100 so that
// a typo does not silently return every row.
function parseCount(target: 'limit' | 'offset', value: string): number {
  const m = /^(\s*)(-?)(\d*)(\s*)/.exec(value);
  const [, lead = '', minus = '', digits = '', trail = ''] = m ?? [];
  const end = lead.length + minus.length + digits.length + trail.length;
  if (digits === '' || end < value.length) {
    const at = digits === '' ? lead.length + minus.length : end;
    const found = value[at] === undefined ? 'end of input' : JSON.stringify(value[at]);
    throw parseError(`${target} parameter`, value, at + 1, `unexpected ${found} expecting digit`);
  }
  const n = Math.min(Number(digits), Number.MAX_SAFE_INTEGER);
  if (minus === '-' && n !== 0) {
    if (target === 'limit') throw negativeLimit();
    // A negative offset is a no-op in PostgREST: reading starts at the first row.
    return 0;
  }
  return n;
}

/** combineRange intersects limit/offset with a Range header's rows, as PostgREST does. */
export function combineRange(limit: number | null, offset: number, header: HeaderRange | null): RestRange {
  let lower = offset;
  let upper = limit === null ? null : offset + limit - 1;
  if (header) {
    lower = Math.max(lower, header.lower);
    if (header.upper !== null) upper = upper === null ? header.upper : Math.min(upper, header.upper);
  }
  return { offset: lower, limit: upper === null ? null : Math.max(0, upper - lower + 1) };
}

// A single-valued parameter's text, or null when it is absent, empty or blank.
const given = (value: string | undefined) => (value === undefined || value.trim() === '' ? null : value);

/** ParseRestQueryOptions tells the parser the request's method (Range headers count for GET and HEAD only). */
export interface ParseRestQueryOptions {
  method?: string;
}

/**
 * parseRestQuery parses a data-API request: the query string (raw, with or without `?`, or URLSearchParams)
 * and its headers. Throws RestQueryError (PGRST100, 103, 106, 107, 123, 22P02, 42704).
 */
export function parseRestQuery(
  query: string | URLSearchParams,
  headers?: RestHeaders,
  options: ParseRestQueryOptions = {},
): RestQuery {
  const lower = lowerCased(headers);
  checkProfile(lower);
  const format = parseAccept(readHeader(lower, 'accept'));
  const prefer = parsePrefer(readHeader(lower, 'prefer'));

  // The first of each single-valued parameter counts; an empty or blank one is as if absent (given).
  // Every key present from the start: one shape, not a new one per parameter seen.
  const single: Record<SingleKey, string | undefined> = {
    select: undefined,
    order: undefined,
    limit: undefined,
    offset: undefined,
    on_conflict: undefined,
    columns: undefined,
  };
  const filters: Filter[] = [];
  const logic: LogicTree[] = [];
  const embedded: Record<string, EmbedParams> = {};
  const embedParams = (path: string) => {
    embedded[path] ??= { filters: [], logic: [], order: [], limit: null, offset: 0 };
    return embedded[path];
  };
  for (const [key, value] of queryPairs(query)) {
    switch (key) {
      case 'apikey':
        // The key may come in the query string; the gateway reads it, it is no filter.
        break;
      case 'select':
      case 'order':
      case 'limit':
      case 'offset':
      case 'on_conflict':
      case 'columns':
        single[key] ??= value;
        break;
      default:
        if (isLogicKey(key)) {
          logic.push(parseLogicTree(key, value));
        } else if (key.includes('.') && EMBEDDED_KEY.test(key)) {
          embeddedParameter(embedParams, key, value);
        } else {
          filters.push(parseFilter(key, value));
        }
    }
  }

  const limitText = given(single.limit);
  const offsetText = given(single.offset);
  const selectText = given(single.select);
  const orderText = given(single.order);
  const onConflictText = given(single.on_conflict);
  const columnsText = given(single.columns);
  const method = (options.method ?? 'GET').toUpperCase();
  const header =
    method === 'GET' || method === 'HEAD'
      ? parseRangeHeader(readHeader(lower, 'range'), readHeader(lower, 'range-unit'))
      : null;

  return {
    select: parseSelect(selectText ?? '*'),
    filters,
    logic,
    order: orderText === null ? [] : parseOrder(orderText),
    range: combineRange(
      limitText === null ? null : parseCount('limit', limitText),
      offsetText === null ? 0 : parseCount('offset', offsetText),
      header,
    ),
    onConflict: onConflictText === null ? null : parseColumnList('on_conflict parameter', onConflictText),
    columns: columnsText === null ? null : parseColumnList('columns parameter', columnsText),
    prefer,
    format,
    embedded,
  };
}

// One embedded resource's parameter: its order, paging, logic trees or a filter on one of its columns.
function embeddedParameter(paramsOf: (path: string) => EmbedParams, key: string, value: string): void {
  const [, prefix = '', rest = ''] = EMBEDDED_KEY.exec(key) ?? [];
  const params = paramsOf(prefix.slice(0, -1));
  switch (rest) {
    case 'order':
      params.order = given(value) === null ? [] : parseOrder(value);
      return;
    case 'limit':
      if (given(value) !== null) params.limit = parseCount('limit', value);
      return;
    case 'offset':
      if (given(value) !== null) params.offset = parseCount('offset', value);
      return;
    default:
      if (isLogicKey(rest)) params.logic.push(parseLogicTree(rest, value));
      else params.filters.push(parseFilter(rest, value));
  }
}

/** hasFilters tells whether a request has a WHERE clause; PATCH and DELETE without one are refused (21000). */
export function hasFilters(query: Pick<RestQuery, 'filters' | 'logic'>): boolean {
  return query.filters.length > 0 || query.logic.length > 0;
}

/** ColumnReference is a column a request names, and where: 42703 for select/filter/order, PGRST204 for columns. */
export interface ColumnReference {
  column: string;
  source: 'select' | 'filter' | 'order' | 'on_conflict' | 'columns';
}

function treeColumns(tree: LogicTree): string[] {
  return tree.kind === 'filter' ? [tree.filter.field.column] : tree.children.flatMap(treeColumns);
}

/** columnReferences lists every column a request names, in order, for checking against the table. */
export function columnReferences(query: RestQuery): ColumnReference[] {
  return [
    ...query.select.flatMap((s) => (s.kind === 'field' ? [{ column: s.field.column, source: 'select' as const }] : [])),
    ...query.filters.map((f) => ({ column: f.field.column, source: 'filter' as const })),
    ...query.logic.flatMap(treeColumns).map((column) => ({ column, source: 'filter' as const })),
    ...query.order.map((o) => ({ column: o.field.column, source: 'order' as const })),
    ...(query.onConflict ?? []).map((column) => ({ column, source: 'on_conflict' as const })),
    ...(query.columns ?? []).map((column) => ({ column, source: 'columns' as const })),
  ];
}
