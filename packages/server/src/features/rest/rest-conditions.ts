import type { Condition, OrderTerm } from '../../db/user-tables.js';
import { RestQueryError } from './rest-query.errors.js';
import type { FieldRef, Filter, LogicTree, Operation, RestQuery } from './rest-query.types.js';

// The parser's filters, logic trees and order (rest-query.types.ts) as the records service's condition tree
// and order terms (db/user-tables.ts). Pure: values stay the query string's text, which the records service
// converts with each column's type (22P02 when they do not convert) after checking the columns (42703).

/** jsonPathNotSupported refuses a JSON path where the records service takes only a column (filters, order). */
export const jsonPathNotSupported = (field: FieldRef, where: 'filters' | 'order') =>
  new RestQueryError(
    400,
    '0A000',
    `JSON paths in ${where} are not supported yet: ${field.column}${field.jsonPath.map((s) => `${s.arrow}${s.key}`).join('')}`,
    null,
    `Filter or order on the whole column "${field.column}" instead`,
  );

function columnOf(field: FieldRef, where: 'filters' | 'order'): string {
  if (field.jsonPath.length > 0) throw jsonPathNotSupported(field, where);
  return field.column;
}

function operationCondition(column: string, operation: Operation): Condition {
  switch (operation.kind) {
    case 'compare':
      return { kind: 'compare', column, op: operation.op, value: operation.value };
    case 'isdistinct':
      return { kind: 'compare', column, op: 'isdistinct', value: operation.value };
    case 'pattern':
      return { kind: 'pattern', column, op: operation.op, pattern: operation.value };
    case 'in':
      return { kind: 'in', column, values: operation.values };
    case 'is': {
      // `is.unknown` is PostgreSQL's IS UNKNOWN: a NULL boolean.
      const value = operation.value;
      if (value === 'null' || value === 'unknown') return { kind: 'is', column, value: null };
      if (value === 'not_null') return { kind: 'is', column, value: 'not_null' };
      return { kind: 'is', column, value: value === 'true' };
    }
    case 'contains':
      return { kind: 'contains', column, op: operation.op, value: operation.value };
    case 'quantified': {
      // `op(any).{a,b}` is `op a OR op b`; `op(all)` is AND (an empty list: false for any, true for all).
      const { op } = operation;
      const conditions = operation.values.map(
        (value): Condition =>
          op === 'like' || op === 'ilike' || op === 'match' || op === 'imatch'
            ? { kind: 'pattern', column, op, pattern: value }
            : { kind: 'compare', column, op, value },
      );
      return { kind: operation.quantifier === 'any' ? 'or' : 'and', conditions };
    }
  }
}

function filterCondition(filter: Filter): Condition {
  const condition = operationCondition(columnOf(filter.field, 'filters'), filter.operation);
  return filter.negated ? { kind: 'not', condition } : condition;
}

function treeCondition(tree: LogicTree): Condition {
  if (tree.kind === 'filter') return filterCondition(tree.filter);
  const condition: Condition = { kind: tree.kind, conditions: tree.children.map(treeCondition) };
  return tree.negated ? { kind: 'not', condition } : condition;
}

/** conditionOf ANDs a request's filters and logic trees into one condition, or undefined when it has none. */
export function conditionOf(query: Pick<RestQuery, 'filters' | 'logic'>): Condition | undefined {
  const conditions = [...query.filters.map(filterCondition), ...query.logic.map(treeCondition)];
  if (conditions.length === 0) return undefined;
  if (conditions.length === 1) return conditions[0];
  return { kind: 'and', conditions };
}

/** orderOf turns `order=` terms into the records service's order terms (empty: the service orders by id). */
export function orderOf(query: Pick<RestQuery, 'order'>): OrderTerm[] {
  return query.order.map((term) => ({
    column: columnOf(term.field, 'order'),
    direction: term.direction,
    nulls: term.nulls,
  }));
}
