import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../app-context.js';
import type { OrderTerm, TableDefinition } from '../../db/user-tables.js';
import { badRequest, notFound } from '../../http/errors.js';
import { requireUser } from '../../http/legacy-principal.js';
import { parseInput } from '../../http/validation.js';
import type { Actor } from '../../lib/actor/actor.js';
import { actorForTable } from '../projects/project-access.js';
import { findTableById } from '../tables/tables.service.js';
import {
  countRecords,
  createRecord,
  deleteRecords,
  getRecord,
  listRecords,
  type RecordInput,
  recordIdCondition,
  updateRecords,
} from './records.service.js';

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

const positiveId = (raw: string | undefined) => (raw && /^[1-9]\d{0,15}$/.test(raw) ? Number(raw) : -1);

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

/** tableRecordsRoutes registers the console's record endpoints under /api/tables/:id/records. */
export async function tableRecordsRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const { db } = ctx;

  async function reach(request: FastifyRequest): Promise<{ actor: Actor; table: TableDefinition; recordId: number }> {
    const params = request.params as { id?: string; recordId?: string };
    const tableId = positiveId(params.id);
    const actor = await actorForTable(db, requireUser(request), tableId);
    const table = await findTableById(db, actor, tableId);
    if (!table) throw notFound('Table not found', 'table_not_found');
    return { actor, table, recordId: positiveId(params.recordId) };
  }

  app.get('/api/tables/:id/records', async (request) => {
    const { actor, table } = await reach(request);
    const query = parseInput(listQuerySchema, request.query);
    const order: OrderTerm[] = [{ column: query.orderBy, direction: query.order }];
    if (query.orderBy !== 'id') order.push({ column: 'id', direction: query.order });
    // The total is the table's kept row count (records/record-counts.ts): no scan, whatever the table's size.
    const total = await countRecords(db, actor, table);
    const data = await listRecords(db, actor, table, pageRead(order, query.limit, query.offset, total));
    if (query.offset + query.limit > total / 2 && query.offset < total) data.reverse();
    return { data, total, limit: query.limit, offset: query.offset };
  });

  app.post('/api/tables/:id/records', async (request, reply) => {
    const { actor, table } = await reach(request);
    return reply.status(201).send(await createRecord(db, actor, table, bodyOf(request.body)));
  });

  app.get('/api/tables/:id/records/:recordId', async (request) => {
    const { actor, table, recordId } = await reach(request);
    const record = recordId > 0 ? await getRecord(db, actor, table, recordId) : null;
    if (!record) throw recordNotFound();
    return record;
  });

  app.patch('/api/tables/:id/records/:recordId', async (request) => {
    const { actor, table, recordId } = await reach(request);
    const patch = bodyOf(request.body);
    if (recordId < 1) throw recordNotFound();
    const [record] = await updateRecords(db, actor, table, recordIdCondition(recordId), patch);
    // An empty patch changes nothing (the role was still checked): the record as it is.
    const current = record ?? (Object.keys(patch).length === 0 ? await getRecord(db, actor, table, recordId) : null);
    if (!current) throw recordNotFound();
    return current;
  });

  app.delete('/api/tables/:id/records/:recordId', async (request) => {
    const { actor, table, recordId } = await reach(request);
    if (recordId < 1) throw recordNotFound();
    const [record] = await deleteRecords(db, actor, table, recordIdCondition(recordId));
    if (!record) throw recordNotFound();
    return { success: true, message: 'Record deleted successfully', record };
  });
}
