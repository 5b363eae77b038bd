import type { Condition, OrderTerm } from '../../db/user-tables.js';
import { badRequest } from '../../http/errors.js';
import { type LogicKey, parseFilter, parseLogicTree } from '../rest/rest-query.filters.js';
import { queryPairs } from '../rest/rest-query.parse.js';
import type { Filter, LogicTree, Operation } from '../rest/rest-query.types.js';

// The query string of the public list API (spec console-management §9): limit (default 100, at most 1000),
// offset (default 0), orderBy (default id; must be a column), order (asc|desc, default asc), and any number of
// PostgREST filters `col=op.value` plus `or=(…)`/`and=(…)` trees, parsed by the data API's parser and turned
// into the records service's conditions. Column names are checked against the table by the records service.

/** PUBLIC_LIST_LIMITS are the paging limits of the public list API. */
export const PUBLIC_LIST_LIMITS = { defaultLimit: 100, maxLimit: 1000 } as const;

/** ListQuery is a parsed list request. */
export interface ListQuery {
  limit: number;
  offset: number;
  order: OrderTerm[];
  where: Condition | undefined;
}

const PAGING_KEYS = new Set(['limit', 'offset', 'orderBy', 'order']);
const LOGIC_KEYS = new Set<string>(['or', 'and', 'not.or', 'not.and']);
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

function leaf(column: string, operation: Exclude<Operation, { kind: 'quantified' }>): Condition {
  switch (operation.kind) {
    case 'compare':
      return { kind: 'compare', column, op: operation.op, value: operation.value };
    case 'isdistinct':
      return { kind: 'compare', column, op: 'isdistinct', value: operation.value };
    case 'pattern':
      return { kind: 'pattern', column, op: operation.op, pattern: operation.value };
    case 'in':
      return { kind: 'in', column, values: operation.values };
    case 'is':
      return {
        kind: 'is',
        column,
        value:
          operation.value === 'true'
            ? true
            : operation.value === 'false'
              ? false
              : operation.value === 'not_null'
                ? 'not_null'
                : null,
      };
    case 'contains':
      return { kind: 'contains', column, op: operation.op, value: operation.value };
  }
}

/** conditionOfFilter turns a parsed PostgREST filter into a records-service condition. */
export function conditionOfFilter(filter: Filter): Condition {
  const { column, jsonPath } = filter.field;
  if (jsonPath.length > 0) throw invalidQuery(`JSON paths (${column}->…) cannot be used in filters of this API`);
  const { operation } = filter;
  const condition: Condition =
    operation.kind === 'quantified'
      ? {
          kind: operation.quantifier === 'any' ? 'or' : 'and',
          conditions: operation.values.map((value) =>
            operation.op === 'like' || operation.op === 'ilike' || operation.op === 'match' || operation.op === 'imatch'
              ? leaf(column, { kind: 'pattern', op: operation.op, value })
              : leaf(column, { kind: 'compare', op: operation.op, value }),
          ),
        }
      : leaf(column, operation);
  return filter.negated ? { kind: 'not', condition } : condition;
}

/** conditionOfTree turns a parsed `or=(…)`/`and=(…)` tree into a condition. */
export function conditionOfTree(tree: LogicTree): Condition {
  if (tree.kind === 'filter') return conditionOfFilter(tree.filter);
  const condition: Condition = { kind: tree.kind, conditions: tree.children.map(conditionOfTree) };
  return tree.negated ? { kind: 'not', condition } : condition;
}

/** parseListQuery reads a list request's raw query string (without `?`). */
export function parseListQuery(rawQuery: string): ListQuery {
  const paging = new Map<string, string>();
  const conditions: Condition[] = [];
  for (const [key, value] of queryPairs(rawQuery)) {
    if (PAGING_KEYS.has(key)) {
      if (!paging.has(key)) paging.set(key, value);
      continue;
    }
    if (conditions.length >= MAX_FILTERS) throw invalidQuery(`A request can have at most ${MAX_FILTERS} filters`);
    conditions.push(
      LOGIC_KEYS.has(key)
        ? conditionOfTree(parseLogicTree(key as LogicKey, value))
        : conditionOfFilter(parseFilter(key, value)),
    );
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
    where: conditions.length === 0 ? undefined : conditions.length === 1 ? conditions[0] : { kind: 'and', conditions },
  };
}
