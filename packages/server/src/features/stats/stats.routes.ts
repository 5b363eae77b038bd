import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.js';
import { requireUser } from '../../http/principal.js';
import { getStats } from './stats.service.js';

/** statsRoutes serves GET /api/stats: {activities, storageSize, tables} of the caller (the dashboard cards). */
export async function statsRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  app.get('/api/stats', async (request) => getStats(ctx.db, requireUser(request).accountId));
}
