import type { Db } from '../../db/database.js';
import type { Callers } from '../../http/caller.js';
import { idOf } from '../../http/ids.js';
import { answer, type Route } from '../../http/routes/route.js';
import { applyInsight } from './insight-apply.js';
import { listInsights, markImplemented } from './insights.service.js';

// The console's performance insights; a signed-in account only:
//   GET  /api/insights                    the account's insights, open ones first
//   POST /api/insights/:id/implemented    marks one implemented → the insight
//   POST /api/insights/:id/apply          does what it suggests (an index) → {insight, table}

/** insightsRoutes are the performance insights routes. */
export function insightsRoutes({ db, callers }: { db: Db; callers: Callers }): Route[] {
  const user = { family: 'console', admit: [callers.user] } as const;
  return [
    {
      ...user,
      method: 'GET',
      url: '/api/insights',
      handler: async (call) => answer(await listInsights(db, call.actor), { headers: { 'Cache-Control': 'no-store' } }),
    },
    {
      ...user,
      method: 'POST',
      url: '/api/insights/:id/implemented',
      handler: (call) => markImplemented(db, call.actor, idOf(call)),
    },
    {
      ...user,
      method: 'POST',
      url: '/api/insights/:id/apply',
      handler: (call) => applyInsight(db, call.actor, idOf(call)),
    },
  ];
}
