import type { Condition, OrderTerm } from '../../db/user-tables.js';
import type { FieldRef, Filter, LogicTree, Operation, OrderTerm as PostgrestOrderTerm } from './rest-query.types.js';

// PostgREST's filters, logic trees and order (parsed by rest-query.*) as the records service's
// condition tree and order terms: the one converter of /rest/v1 and the public record API, which both read
// through the records service. Pure: values stay the query string's text, and columns and JSON paths are
// unchecked; checkCondition converts values with each column's type (22P02) after checking the columns (42703)
// and the paths (42883).

type Leaf = Extract<Condition, { column: string }>;
type Target = Pick<Leaf, 'column' | 'path'>;

// A JSON path is only set when there is one: the plain column, by far the usual case, stays small.
function targetOf(field: FieldRef): Target {
  return field.jsonPath.length === 0 ? { column: field.column } : { column: field.column, path: field.jsonPath };
}

function isValue(value: string): Extract<Leaf, { kind: 'is' }>['value'] {
  // `is.unknown` is PostgreSQL's IS UNKNOWN: a NULL boolean.
  if (value === 'null' || value === 'unknown') return null;
  if (value === 'not_null') return 'not_null';
  return value === 'true';
}

function operationCondition(target: Target, operation: Operation): Condition {
  switch (operation.kind) {
    case 'compare':
      return { kind: 'compare', ...target, op: operation.op, value: operation.value };
    case 'isdistinct':
      return { kind: 'compare', ...target, op: 'isdistinct', value: operation.value };
    case 'pattern':
      return { kind: 'pattern', ...target, op: operation.op, pattern: operation.value };
    case 'in':
      return { kind: 'in', ...target, values: operation.values };
    case 'is':
      return { kind: 'is', ...target, value: isValue(operation.value) };
    case 'contains':
      return { kind: 'contains', ...target, op: operation.op, value: operation.value };
    case 'search':
      return { kind: 'search', ...target, op: operation.op, config: operation.config, query: operation.value };
    case 'quantified': {
      // `op(any).{a,b}` is `op a OR op b`; `op(all)` is AND (an empty list: false for any, true for all).
      const { op } = operation;
      const conditions = operation.values.map(
        (value): Condition =>
          op === 'like' || op === 'ilike' || op === 'match' || op === 'imatch'
            ? { kind: 'pattern', ...target, op, pattern: value }
            : { kind: 'compare', ...target, op, value },
      );
      return { kind: operation.quantifier === 'any' ? 'or' : 'and', conditions };
    }
  }
}

/** filterCondition turns one parsed filter (`qty=not.gt.5`, `meta->>color=eq.red`) into a condition. */
export function filterCondition(filter: Filter): Condition {
  const condition = operationCondition(targetOf(filter.field), filter.operation);
  return filter.negated ? { kind: 'not', condition } : condition;
}

/** treeCondition turns a parsed `or=(…)`/`and=(…)` tree into a condition. */
export function treeCondition(tree: LogicTree): Condition {
  if (tree.kind === 'filter') return filterCondition(tree.filter);
  const condition: Condition = { kind: tree.kind, conditions: tree.children.map(treeCondition) };
  return tree.negated ? { kind: 'not', condition } : condition;
}

/** allConditions ANDs conditions into one, or undefined when there are none. */
export function allConditions(conditions: Condition[]): Condition | undefined {
  if (conditions.length === 0) return undefined;
  if (conditions.length === 1) return conditions[0];
  return { kind: 'and', conditions };
}

/** filtersCondition ANDs a request's filters and logic trees into one condition, or undefined without any. */
export function filtersCondition(query: {
  filters: readonly Filter[];
  logic: readonly LogicTree[];
}): Condition | undefined {
  return allConditions([...query.filters.map(filterCondition), ...query.logic.map(treeCondition)]);
}

/** orderTerms turns `order=` terms into the records service's (empty: the service orders by id). */
export function orderTerms(terms: readonly PostgrestOrderTerm[]): OrderTerm[] {
  return terms.map((term) => ({ ...targetOf(term.field), direction: term.direction, nulls: term.nulls }));
}
