import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../app-context.js';
import { requireUser } from '../../http/principal.js';
import { parseInput } from '../../http/validation.js';
import { listHistory } from './history.service.js';

const historyQuerySchema = z.object({
  tableId: z.coerce
    .number({ error: 'tableId must be a table id' })
    .int('tableId must be a table id')
    .positive('tableId must be a table id')
    .optional(),
  page: z.coerce
    .number({ error: 'page must be a number' })
    .int('page must be a whole number')
    .min(1, 'page must be at least 1')
    .default(1),
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int('limit must be a whole number')
    .min(1, 'limit must be at least 1')
    .max(100, 'limit cannot exceed 100')
    .default(20),
});

/**
 * historyRoutes serves GET /api/history?tableId=&page=&limit= (the table page's History tab): the caller's
 * changes, of one table when tableId is given (a deleted table's too), newest first, paged.
 */
export async function historyRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  app.get('/api/history', async (request) => {
    const { accountId } = requireUser(request);
    const query = parseInput(historyQuerySchema, request.query);
    return listHistory(ctx.db.kysely, { accountId, tableId: query.tableId }, query);
  });
}
