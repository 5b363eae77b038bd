import { ACTIVITY_PAGE_SIZE } from '@basalt/shared';
import { z } from 'zod';
import type { Db } from '../../db/database.js';
import type { Callers } from '../../http/caller.js';
import type { Route } from '../../http/routes/route.js';
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

/** activityRoutes serve GET /api/activity: the caller's activity feed, newest first, paged. */
export function activityRoutes({ db, callers }: { db: Db; callers: Callers }): Route[] {
  return [
    {
      method: 'GET',
      url: '/api/activity',
      family: 'console',
      admit: [callers.user],
      docs: { summary: "The caller's activity, newest first", query: activityQuerySchema },
      handler: (call) => {
        const { page, limit } = parseInput(activityQuerySchema, call.query);
        return listActivity(db.kysely, call.actor.accountId, { page, limit });
      },
    },
  ];
}
