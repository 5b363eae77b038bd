import { ACTIVITY_PAGE_SIZE } from '@basalt/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../app-context.js';
import { requireUser } from '../../http/principal.js';
import { parseInput } from '../../http/validation.js';
import { listActivity } from './activity.service.js';

const activityQuerySchema = z.object({
  page: z.coerce.number({ error: 'page must be a whole number of 1 or more' }).int().min(1).default(1),
  limit: z.coerce
    .number({ error: 'limit must be a whole number from 1 to 100' })
    .int()
    .min(1, 'limit must be a whole number from 1 to 100')
    .max(100, 'limit must be a whole number from 1 to 100')
    .default(ACTIVITY_PAGE_SIZE),
});

/** activityRoutes serves GET /api/activity: the caller's activity feed, newest first, paged. */
export async function activityRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  app.get('/api/activity', async (request) => {
    const { accountId } = requireUser(request);
    const { page, limit } = parseInput(activityQuerySchema, request.query);
    return listActivity(ctx.db.kysely, accountId, { page, limit });
  });
}
