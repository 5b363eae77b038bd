import type { ColumnType, TableSchema } from '@basalt/shared';
import type { FilterParams } from './records.api';

// The grid's filters: a column, an operator and a value, all of which must hold. They live in the page's address
// (`?filter=qty:gte:5&filter=title:has:tea`), so a reload or a shared link shows the same records, and go to the
// server as the public record API's filters (`qty=gte.5`, `title=ilike.*tea*`).

/** FilterOperator is what a filter asks of a column. */
export type FilterOperator = 'eq' | 'neq' | 'gt' | 'gte' | 'lt' | 'lte' | 'has' | 'empty' | 'filled' | 'true' | 'false';

/** RecordFilter is one filter of the grid. */
export interface RecordFilter {
  column: string;
  op: FilterOperator;
  value: string;
}

/** OPERATOR_LABELS name each operator as the filter bar shows it. */
export const OPERATOR_LABELS: Record<FilterOperator, string> = {
  eq: 'equals',
  neq: 'is not',
  gt: 'greater than',
  gte: 'at least',
  lt: 'less than',
  lte: 'at most',
  has: 'contains',
  empty: 'is empty',
  filled: 'is not empty',
  true: 'is true',
  false: 'is false',
};

const ORDERED: FilterOperator[] = ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'empty', 'filled'];

/** operatorsFor lists the operators a column of this type offers, the first being the default. */
export function operatorsFor(type: ColumnType): FilterOperator[] {
  switch (type) {
    case 'text':
      return ['has', 'eq', 'neq', 'empty', 'filled'];
    case 'boolean':
      return ['true', 'false', 'empty', 'filled'];
    case 'json':
    case 'array':
      return ['empty', 'filled'];
    default:
      return ORDERED;
  }
}

/** takesValue says whether an operator needs a value typed in. */
export function takesValue(op: FilterOperator): boolean {
  return !['empty', 'filled', 'true', 'false'].includes(op);
}

const FILTER_PARAM = /^([A-Za-z_][A-Za-z0-9_]{0,62}):([a-z]+):([\s\S]*)$/;
const isOperator = (op: string): op is FilterOperator => Object.hasOwn(OPERATOR_LABELS, op);

/** parseFilterParam reads one `filter` parameter of the address, or null when it is not one. */
export function parseFilterParam(text: string): RecordFilter | null {
  const match = FILTER_PARAM.exec(text);
  if (!match) return null;
  const [, column = '', op = '', value = ''] = match;
  return isOperator(op) ? { column, op, value: takesValue(op) ? value : '' } : null;
}

/** filterParam writes a filter as its `filter` parameter. */
export function filterParam(filter: RecordFilter): string {
  return `${filter.column}:${filter.op}:${takesValue(filter.op) ? filter.value : ''}`;
}

/**
 * toServerFilters turns the grid's filters into the server's query parameters, leaving out those on columns the
 * table does not have (a link from before a rename). `contains` matches anywhere, ignoring case.
 */
export function toServerFilters(filters: readonly RecordFilter[], schema: TableSchema): FilterParams {
  const params: Array<readonly [string, string]> = [];
  for (const { column, op, value } of filters) {
    if (!Object.hasOwn(schema, column)) continue;
    if (op === 'has') params.push([column, `ilike.*${value}*`]);
    else if (op === 'empty') params.push([column, 'is.null']);
    else if (op === 'filled') params.push([column, 'not.is.null']);
    else if (op === 'true' || op === 'false') params.push([column, `is.${op}`]);
    else params.push([column, `${op}.${value}`]);
  }
  return params;
}

/** describeFilter reads a filter as a phrase: `qty at least 5`. */
export function describeFilter({ column, op, value }: RecordFilter): string {
  return takesValue(op) ? `${column} ${OPERATOR_LABELS[op]} ${value}` : `${column} ${OPERATOR_LABELS[op]}`;
}
