import type { Condition, OrderTerm } from '../../db/user-conditions.js';
import { badRequest } from '../../http/errors.js';
import { allConditions, filterCondition, treeCondition } from '../rest/rest-filters.js';
import { type LogicKey, parseFilter, parseLogicTree } from '../rest/rest-query.filters.js';
import { queryPairs } from '../rest/rest-query.parse.js';

// The query string of the public list API: limit (default 100, at most 1000),
// offset (default 0), orderBy (default id; must be a column), order (asc|desc, default asc), and any number of
// PostgREST filters `col=op.value` (JSON paths too: `meta->>color=eq.red`) plus `or=(…)`/`and=(…)` trees, parsed
// by the data API's parser and turned into the records service's conditions by its converter, as /rest/v1's
// are. Column names and paths are checked against the table by the records service.

/** PUBLIC_LIST_LIMITS are the paging limits of the public list API. */
export const PUBLIC_LIST_LIMITS = { defaultLimit: 100, maxLimit: 1000 } as const;

/** ListQuery is a parsed list request. */
export interface ListQuery {
  limit: number;
  offset: number;
  order: OrderTerm[];
  where: Condition | undefined;
}

/** PAGING_KEYS are the paging parameters; a column of one of these names cannot be filtered by its name. */
export const PAGING_KEYS: ReadonlySet<string> = new Set(['limit', 'offset', 'orderBy', 'order']);
/** LOGIC_KEYS are the parameters that take an `or`/`and` tree rather than one column's filter. */
export const LOGIC_KEYS: ReadonlySet<string> = new Set<string>(['or', 'and', 'not.or', 'not.and']);
// A filter list longer than this is no real query; it would only make a long WHERE clause.
const MAX_FILTERS = 100;

const invalidQuery = (message: string, details?: string) =>
  badRequest('invalid_query', message, details === undefined ? {} : { details });

function count(name: 'limit' | 'offset', text: string | undefined, fallback: number): number {
  if (text === undefined || text.trim() === '') return fallback;
  if (!/^\s*\d{1,15}\s*$/.test(text))
    throw invalidQuery(`${name} must be a whole number of at least 0`, `${name}=${text.slice(0, 40)}`);
  return Number(text);
}

/**
 * parseFilters reads the filters of a raw query string (without `?`), skipping the parameters named in `skip`
 * (the paging ones): `col=op.value` and `or`/`and` trees, all of which must hold.
 */
export function parseFilters(rawQuery: string, skip: ReadonlySet<string> = PAGING_KEYS): Condition | undefined {
  return filtersOf(queryPairs(rawQuery), skip);
}

function filtersOf(pairs: Array<[string, string]>, skip: ReadonlySet<string>): Condition | undefined {
  const conditions: Condition[] = [];
  for (const [key, value] of pairs) {
    if (skip.has(key)) continue;
    if (conditions.length >= MAX_FILTERS) throw invalidQuery(`A request can have at most ${MAX_FILTERS} filters`);
    conditions.push(
      LOGIC_KEYS.has(key)
        ? treeCondition(parseLogicTree(key as LogicKey, value))
        : filterCondition(parseFilter(key, value)),
    );
  }
  return allConditions(conditions);
}

/** parseListQuery reads a list request's raw query string (without `?`). */
export function parseListQuery(rawQuery: string): ListQuery {
  const pairs = queryPairs(rawQuery);
  const paging = new Map<string, string>();
  for (const [key, value] of pairs) {
    if (PAGING_KEYS.has(key) && !paging.has(key)) paging.set(key, value);
  }
  const orderBy = paging.get('orderBy')?.trim() || 'id';
  const direction = (paging.get('order')?.trim() || 'asc').toLowerCase();
  if (direction !== 'asc' && direction !== 'desc')
    throw invalidQuery('order must be asc or desc', `order=${direction.slice(0, 40)}`);
  return {
    limit: Math.min(count('limit', paging.get('limit'), PUBLIC_LIST_LIMITS.defaultLimit), PUBLIC_LIST_LIMITS.maxLimit),
    offset: count('offset', paging.get('offset'), 0),
    // id breaks ties, so that pages of a non-unique order neither repeat nor skip records.
    order:
      orderBy === 'id'
        ? [{ column: 'id', direction }]
        : [
            { column: orderBy, direction },
            { column: 'id', direction },
          ],
    where: filtersOf(pairs, PAGING_KEYS),
  };
}
