import type { Db } from '../../db/database.js';
import { columnTypeIn } from '../../db/user-tables.js';
import type { Actor } from '../../lib/actor/actor.js';
import { listRecordsWithRelated, type RelatedValue } from '../records/record-related-reads.js';
import { countRecords, listRecords, type ReadOptions, type RecordRow } from '../records/records.service.js';
import type { TableDefinition } from '../tables/table-definition.js';
import { hasAggregates, readAggregates } from './rest-aggregate.js';
import { csvBody } from './rest-csv.js';
import { type EmbedPlan, hasEmbeds, planEmbeds } from './rest-embed.js';
import { filtersCondition, orderTerms } from './rest-filters.js';
import { hasRelatedOrder, relatedOrderTerms } from './rest-order.js';
import { undefinedColumn } from './rest-query.errors.js';
import type { RestQuery } from './rest-query.types.js';
import {
  appliedHeader,
  bodyOf,
  checkSingular,
  contentType,
  type RestReply,
  rangeHeader,
  readStatus,
} from './rest-response.js';
import { checkSelect, type EmbedValueOf, projectRows } from './rest-select.js';

// GET and HEAD on /rest/v1/<table>: one list query, plus a count when `Prefer: count` asks for the total
// (HEAD with a count needs only the count): exact, planned or estimated, mostly without a scan
// (records/record-counts.ts). A singular read fetches at most two rows and
// counts only to name the number in its 406. Embedded resources (rest-embed.ts) add to the list query's
// condition and are read by the same statement, as related reads of each row.

/** checkColumns refuses, before any query, a selected or ordered column the table does not have (42703). */
function checkColumns(table: TableDefinition, query: RestQuery): void {
  const typeOf = (column: string) => columnTypeIn(table, column);
  checkSelect(query.select, table.name, typeOf);
  for (const term of query.order) {
    if (term.relation === undefined && typeOf(term.field.column) === null)
      throw undefinedColumn(table.name, term.field.column);
  }
}

// The list's rows alone, or with every embed's values when there are embeds with a value: one statement either way.
// Without embeds it is the records service's own promise (a read is hot: no wrapper, no extra object).
type Listed = RecordRow[] | { rows: RecordRow[]; related: RelatedValue[][] };

function listOf(db: Db, actor: Actor, table: TableDefinition, embeds: EmbedPlan | null) {
  const reads = embeds && embeds.related.length > 0 ? embeds.related : null;
  return (options: ReadOptions): Promise<Listed> =>
    reads ? listRecordsWithRelated(db, actor, table, options, reads) : listRecords(db, actor, table, options);
}

const rowsOf = (listed: Listed) => (Array.isArray(listed) ? listed : listed.rows);
const relatedOf = (listed: Listed) => (Array.isArray(listed) ? null : listed.related);

const rowsAfter = (total: number, offset: number, limit: number | null) =>
  Math.max(0, Math.min(limit ?? Number.POSITIVE_INFINITY, total - offset));

/** readRows answers GET and HEAD: the rows, Content-Range and the status the count implies. */
export async function readRows(
  db: Db,
  actor: Actor,
  table: TableDefinition,
  query: RestQuery,
  head: boolean,
): Promise<RestReply> {
  checkColumns(table, query);
  if (hasAggregates(query.select)) return readAggregates(db, actor, table, query, head);
  const embeds = hasEmbeds(query.select) ? await planEmbeds(db, actor, table, query) : null;
  const where = embeds ? embeds.where : filtersCondition(query);
  const order = hasRelatedOrder(query) ? await relatedOrderTerms(db, actor, table, query) : orderTerms(query.order);
  const { offset, limit } = query.range;
  const singular = query.format === 'object';
  const counting = query.prefer.count !== null;
  const kind = query.prefer.count ?? 'exact';

  // A HEAD reads no rows, so no embeds either.
  const list = listOf(db, actor, table, head ? null : embeds);
  let rows: RecordRow[] = [];
  let related: RelatedValue[][] | null = null;
  let returned: number;
  let total: number | null = null;
  if (singular) {
    const listed = await list({ where, order, offset, limit: Math.min(limit ?? 2, 2) });
    rows = rowsOf(listed);
    related = relatedOf(listed);
    returned = rows.length;
    if (returned > 1 || counting) {
      total = await countRecords(db, actor, table, where, kind);
      returned = rowsAfter(total, offset, limit);
    }
    checkSingular(query.format, returned);
  } else if (head && counting) {
    total = await countRecords(db, actor, table, where, kind);
    returned = rowsAfter(total, offset, limit);
  } else {
    const listing = list({ where, order, offset, limit });
    let listed: Listed;
    if (counting) [listed, total] = await Promise.all([listing, countRecords(db, actor, table, where, kind)]);
    else listed = await listing;
    rows = rowsOf(listed);
    related = relatedOf(listed);
    returned = rows.length;
  }

  const status = readStatus(offset, returned, counting ? total : null);
  const headers = appliedHeader(
    {
      'Content-Type': contentType(query.format),
      'Content-Range': rangeHeader(offset, returned, counting ? total : null),
      'Range-Unit': 'items',
    },
    { count: query.prefer.count },
  );
  if (head) return { status, headers };
  const embedded: EmbedValueOf | undefined = embeds?.aggregated
    ? await embeds.values(rows)
    : embeds && related
      ? embeds.valueOf(rows, related)
      : undefined;
  const projected = projectRows(rows, query.select, embedded);
  if (query.format === 'csv') return { status, headers, body: csvBody(table, query.select, projected) };
  return { status, headers, body: bodyOf(query.format, projected) };
}
