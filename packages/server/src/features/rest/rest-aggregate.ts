import type { Db } from '../../db/database.js';
import type { TableDefinition } from '../../db/user-tables.js';
import type { Actor } from '../../lib/actor/actor.js';
import { type Aggregate, aggregateRecords } from '../records/record-aggregates.js';
import { csvBody } from './rest-csv.js';
import { filtersCondition, orderTerms } from './rest-filters.js';
import { notGroupable } from './rest-query.errors.js';
import type { AggregateItem, RestQuery, SelectItem } from './rest-query.types.js';
import {
  appliedHeader,
  bodyOf,
  checkSingular,
  contentType,
  type RestReply,
  rangeHeader,
  readStatus,
} from './rest-response.js';
import { aggregateKey, projectRows } from './rest-select.js';

// A read whose `select` holds an aggregate (`count()`, `amount.sum()`, `avg()::int`), as PostgREST 12 answers
// it: one row per group of the other selected columns (one row without any), in select order. Embedded
// resources beside an aggregate, and `*` beside one, are refused: Basalt groups by plain columns only.

/** hasAggregates tells whether a selection holds a top-level aggregate. */
export const hasAggregates = (select: SelectItem[]) => select.some((item) => item.kind === 'aggregate');

/** readAggregates answers GET and HEAD for a selection with aggregates. */
export async function readAggregates(
  db: Db,
  actor: Actor,
  table: TableDefinition,
  query: RestQuery,
  head: boolean,
): Promise<RestReply> {
  const groups: string[] = [];
  const aggregates: Aggregate[] = [];
  for (const item of query.select) {
    if (item.kind === 'aggregate') aggregates.push(aggregateOf(item));
    else if (item.kind === 'star') throw notGroupable('*');
    else if (item.kind === 'embed') throw notGroupable('embedded resources');
    else if (item.field.jsonPath.length > 0) throw notGroupable('JSON paths');
    else if (!groups.includes(item.field.column)) groups.push(item.field.column);
  }
  if (query.order.some((term) => term.relation !== undefined)) throw notGroupable('an embedded resource’s order');
  const { offset, limit } = query.range;
  const counting = query.prefer.count !== null;
  const read = (paged: boolean) =>
    aggregateRecords(db, actor, table, {
      groups,
      aggregates,
      where: filtersCondition(query),
      order: orderTerms(query.order),
      limit: paged ? limit : null,
      offset: paged ? offset : 0,
    });
  // A count counts the groups: read them all once, and page in memory.
  const all = counting ? await read(false) : null;
  const rows = all ? all.slice(offset, limit === null ? undefined : offset + limit) : await read(true);
  const total = all ? all.length : null;
  checkSingular(query.format, rows.length);
  const status = readStatus(offset, rows.length, total);
  const headers = appliedHeader(
    {
      'Content-Type': contentType(query.format),
      'Content-Range': rangeHeader(offset, rows.length, total),
      'Range-Unit': 'items',
    },
    { count: query.prefer.count },
  );
  if (head) return { status, headers };
  const projected = projectRows(rows, query.select);
  if (query.format === 'csv') return { status, headers, body: csvBody(table, query.select, projected) };
  return { status, headers, body: bodyOf(query.format, projected) };
}

function aggregateOf(item: AggregateItem): Aggregate {
  return { fn: item.fn, column: item.column, key: aggregateKey(item) };
}
