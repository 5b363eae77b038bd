import { z } from 'zod';
import type { Db } from '../../db/database.js';
import type { OrderTerm } from '../../db/user-conditions.js';
import type { Callers } from '../../http/caller.js';
import { answer, type Route } from '../../http/routes/route.js';
import { parseInput } from '../../http/validation.js';
import { parseFilters } from '../public-api/public-api.query.js';
import { countRecords, deleteRecords, listRecords } from '../records/records.service.js';
import { reachTable } from '../tables/table-records.routes.js';
import { exportCsv } from './records-csv.js';

// The console's records grid over a table it reaches by id (its own, or one shared through a project, with what
// the member's role allows):
//   GET    /api/tables/:id/records?limit=&offset=&orderBy=&order=&<filters>   {data, total, limit, offset}
//   DELETE /api/tables/:id/records  {ids: [1, 2, …]}                          {success, message, deleted, ids}
//   GET    /api/tables/:id/records/export?<filters>                           text/csv, every matching record
// Filters are the public record API's (`qty=gte.5`, `title=ilike.*tea*`, `or=(…)`), parsed by the same parser
// and checked against the table by the records service: a bad one is a 400 that names it.

/** MAX_DELETE_IDS is how many records one bulk delete may name (a grid page at most). */
export const MAX_DELETE_IDS = 1000;

const listQuerySchema = z.object({
  limit: z.coerce
    .number({ error: 'limit must be a whole number' })
    .int('limit must be a whole number')
    .min(0, 'limit must be at least 0')
    .max(1000, 'limit cannot exceed 1000')
    .default(100),
  offset: z.coerce
    .number({ error: 'offset must be a whole number' })
    .int('offset must be a whole number')
    .min(0, 'offset must be at least 0')
    .default(0),
  orderBy: z.string().max(63).default('id'),
  order: z.enum(['asc', 'desc'], { error: 'order must be asc or desc' }).default('asc'),
});

const deleteBodySchema = z.strictObject({
  ids: z
    .array(
      z
        .number({ error: 'Each id must be a whole number' })
        .int('Each id must be a whole number')
        .min(1, 'Each id must be at least 1')
        .max(Number.MAX_SAFE_INTEGER, 'Each id must be at most 2^53 - 1'),
      { error: 'ids must be a list of record ids' },
    )
    .min(1, 'Name at least one record to delete')
    .max(MAX_DELETE_IDS, `A bulk delete can name at most ${MAX_DELETE_IDS} records`),
});

/**
 * pageRead reads a page past the middle of the selection from the other end: the same rows in the reverse order
 * (which the caller turns back), skipping fewer rows. The console's last page of a million records skips 25 rows,
 * not 999,975. The order ends with id, so it is total and its reverse exact.
 */
function pageRead(order: OrderTerm[], limit: number, offset: number, total: number) {
  if (offset + limit <= total / 2 || offset >= total) return { order, limit, offset };
  const reversed = order.map((term): OrderTerm => {
    const nulls = term.nulls ?? (term.direction === 'asc' ? 'last' : 'first');
    return {
      column: term.column,
      direction: term.direction === 'asc' ? 'desc' : 'asc',
      nulls: nulls === 'last' ? 'first' : 'last',
    };
  });
  const end = Math.min(total, offset + limit);
  return { order: reversed, limit: end - offset, offset: total - end };
}

/** recordsGridRoutes are the grid's list, bulk delete and CSV export under /api/tables/:id/records. */
export function recordsGridRoutes({ db, callers }: { db: Db; callers: Callers }): Route[] {
  const user = { family: 'console', admit: [callers.user] } as const;
  return [
    {
      ...user,
      method: 'GET',
      url: '/api/tables/:id/records',
      handler: async (call) => {
        const { actor, table } = await reachTable(db, call);
        const query = parseInput(listQuerySchema, call.query);
        const where = parseFilters(call.rawQuery);
        const order: OrderTerm[] = [{ column: query.orderBy, direction: query.order }];
        if (query.orderBy !== 'id') order.push({ column: 'id', direction: query.order });
        // Unfiltered, the total is the table's kept row count; filtered, an exact count kept per filter and moved
        // along by writes (records/record-counts.ts): a page turn does not count the table again.
        const total = await countRecords(db, actor, table, where);
        const read = pageRead(order, query.limit, query.offset, total);
        const data = await listRecords(db, actor, table, { where, ...read });
        if (read.order !== order) data.reverse();
        return { data, total, limit: query.limit, offset: query.offset };
      },
    },
    {
      ...user,
      method: 'DELETE',
      url: '/api/tables/:id/records',
      handler: async (call) => {
        const { actor, table } = await reachTable(db, call);
        const { ids } = parseInput(deleteBodySchema, call.body ?? {});
        // One transaction: every named record the caller may delete goes, with a history entry each; ids of
        // records already gone are left out of the answer.
        const deleted = await deleteRecords(db, actor, table, { kind: 'in', column: 'id', values: [...new Set(ids)] });
        const count = deleted.length;
        return {
          success: true,
          message: `${count} ${count === 1 ? 'record' : 'records'} deleted`,
          deleted: count,
          ids: deleted.map((record) => record.id),
        };
      },
    },
    {
      ...user,
      method: 'GET',
      url: '/api/tables/:id/records/export',
      handler: async (call) => {
        const { actor, table } = await reachTable(db, call);
        const stream = await exportCsv(db, actor, table, parseFilters(call.rawQuery));
        return answer(stream, {
          headers: {
            'content-type': 'text/csv; charset=utf-8',
            // Table names are letters, digits and underscores: safe in the header as they are.
            'content-disposition': `attachment; filename="${table.name}.csv"`,
          },
        });
      },
    },
  ];
}
