import { z } from 'zod';
import type { AppContext } from '../../app-context.js';
import type { OrderTerm, TableDefinition } from '../../db/user-tables.js';
import { badRequest, notFound } from '../../http/errors.js';
import { idOf, parseId } from '../../http/ids.js';
import { answer, type Call, type Route } from '../../http/routes/route.js';
import { parseInput } from '../../http/validation.js';
import type { Actor } from '../../lib/actor/actor.js';
import { actorOn } from '../project-access/project-access.js';
import {
  countRecords,
  createRecord,
  deleteRecords,
  getRecord,
  listRecords,
  type RecordInput,
  recordIdCondition,
  updateRecords,
} from '../records/records.service.js';
import { findTableById } from './tables.service.js';

// The console's record calls by table id, for the caller's own tables and the tables shared with it through a
// project, through the one records path with the actor for that table (a member acts with its role):
//   GET    /api/tables/:id/records?limit=&offset=&orderBy=&order=   {data, total, limit, offset}
//   POST   /api/tables/:id/records                                  {…fields} → 201 the record
//   GET    /api/tables/:id/records/:recordId                        the record
//   PATCH  /api/tables/:id/records/:recordId                        {…fields} → the record
//   DELETE /api/tables/:id/records/:recordId                        {success, message, record}
// Unknown tables and records, and tables the caller does not reach, are 404; a role that may not is 403.

/**
 * pageRead reads a page past the middle of the table from the other end: the same rows in the reverse order
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

function bodyOf(body: unknown): RecordInput {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw badRequest('invalid_body', "The request body must be a JSON object of the table's fields");
  }
  return body as RecordInput;
}

const recordNotFound = () => notFound('Record not found', 'record_not_found');

/** tableRecordsRoutes are the console's record routes under /api/tables/:id/records. */
export function tableRecordsRoutes({ db, callers }: AppContext): Route[] {
  const user = { family: 'console', admit: [callers.user] } as const;

  async function reach(call: Call): Promise<{ actor: Actor; table: TableDefinition; recordId: number }> {
    const tableId = idOf(call);
    const actor = await actorOn(db, call.actor, { tableId });
    const table = await findTableById(db, actor, tableId);
    if (!table) throw notFound('Table not found', 'table_not_found');
    return { actor, table, recordId: parseId(call.params.recordId) };
  }

  return [
    {
      ...user,
      method: 'GET',
      url: '/api/tables/:id/records',
      handler: async (call) => {
        const { actor, table } = await reach(call);
        const query = parseInput(listQuerySchema, call.query);
        const order: OrderTerm[] = [{ column: query.orderBy, direction: query.order }];
        if (query.orderBy !== 'id') order.push({ column: 'id', direction: query.order });
        // The total is the table's kept row count (records/record-counts.ts): no scan, whatever the table's size.
        const total = await countRecords(db, actor, table);
        const data = await listRecords(db, actor, table, pageRead(order, query.limit, query.offset, total));
        if (query.offset + query.limit > total / 2 && query.offset < total) data.reverse();
        return { data, total, limit: query.limit, offset: query.offset };
      },
    },
    {
      ...user,
      method: 'POST',
      url: '/api/tables/:id/records',
      handler: async (call) => {
        const { actor, table } = await reach(call);
        return answer(await createRecord(db, actor, table, bodyOf(call.body)), { status: 201 });
      },
    },
    {
      ...user,
      method: 'GET',
      url: '/api/tables/:id/records/:recordId',
      handler: async (call) => {
        const { actor, table, recordId } = await reach(call);
        const record = recordId > 0 ? await getRecord(db, actor, table, recordId) : null;
        if (!record) throw recordNotFound();
        return record;
      },
    },
    {
      ...user,
      method: 'PATCH',
      url: '/api/tables/:id/records/:recordId',
      handler: async (call) => {
        const { actor, table, recordId } = await reach(call);
        const patch = bodyOf(call.body);
        if (recordId < 1) throw recordNotFound();
        const [record] = await updateRecords(db, actor, table, recordIdCondition(recordId), patch);
        // An empty patch changes nothing (the role was still checked): the record as it is.
        const current =
          record ?? (Object.keys(patch).length === 0 ? await getRecord(db, actor, table, recordId) : null);
        if (!current) throw recordNotFound();
        return current;
      },
    },
    {
      ...user,
      method: 'DELETE',
      url: '/api/tables/:id/records/:recordId',
      handler: async (call) => {
        const { actor, table, recordId } = await reach(call);
        if (recordId < 1) throw recordNotFound();
        const [record] = await deleteRecords(db, actor, table, recordIdCondition(recordId));
        if (!record) throw recordNotFound();
        return { success: true, message: 'Record deleted successfully', record };
      },
    },
  ];
}
