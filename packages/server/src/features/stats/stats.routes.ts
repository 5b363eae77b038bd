import type { Db } from '../../db/database.js';
import type { Callers } from '../../http/caller.js';
import type { Route } from '../../http/routes/route.js';
import { getStats } from './stats.service.js';

/** statsRoutes serve GET /api/stats: {activities, apiCalls, storageSize, filesSize, totalSize, tables} of the caller (the dashboard cards). */
export function statsRoutes({ db, callers }: { db: Db; callers: Callers }): Route[] {
  return [
    {
      method: 'GET',
      url: '/api/stats',
      family: 'console',
      admit: [callers.user],
      handler: (call) => getStats(db, call.actor.accountId),
    },
  ];
}
