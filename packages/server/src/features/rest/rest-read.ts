import type { Db } from '../../db/database.js';
import { columnTypeIn } from '../../db/user-tables.js';
import type { Actor } from '../../lib/actor/actor.js';
import { countRecords, listRecords, type RecordRow } from '../records/records.service.js';
import type { TableDefinition } from '../tables/table-definition.js';
import { hasAggregates, readAggregates } from './rest-aggregate.js';
import { csvBody } from './rest-csv.js';
import { hasEmbeds, planEmbeds } from './rest-embed.js';
import { filtersCondition, orderTerms } from './rest-filters.js';
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
// condition and are read after it, for the rows it returned.

/** checkColumns refuses, before any query, a selected or ordered column the table does not have (42703). */
function checkColumns(table: TableDefinition, query: RestQuery): void {
  const typeOf = (column: string) => columnTypeIn(table, column);
  checkSelect(query.select, table.name, typeOf);
  for (const term of query.order) {
    if (typeOf(term.field.column) === null) throw undefinedColumn(table.name, term.field.column);
  }
}

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
  const order = orderTerms(query.order);
  const { offset, limit } = query.range;
  const singular = query.format === 'object';
  const counting = query.prefer.count !== null;
  const kind = query.prefer.count ?? 'exact';

  let rows: RecordRow[] = [];
  let returned: number;
  let total: number | null = null;
  if (singular) {
    rows = await listRecords(db, actor, table, { where, order, offset, limit: Math.min(limit ?? 2, 2) });
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
    const list = listRecords(db, actor, table, { where, order, offset, limit });
    if (counting) [rows, total] = await Promise.all([list, countRecords(db, actor, table, where, kind)]);
    else rows = await list;
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
  const embedded: EmbedValueOf | undefined = embeds ? await embeds.values(rows) : undefined;
  const projected = projectRows(rows, query.select, embedded);
  if (query.format === 'csv') return { status, headers, body: csvBody(table, query.select, projected) };
  return { status, headers, body: bodyOf(query.format, projected) };
}
