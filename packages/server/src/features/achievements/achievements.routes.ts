import type { Db } from '../../db/database.js';
import type { Callers } from '../../http/caller.js';
import { answer, type Route } from '../../http/routes/route.js';
import { listAchievements } from './achievements.service.js';

// GET /api/achievements: the signed-in account's onboarding milestones (a console account only, never an API
// key or an end user's token).

/** achievementsRoutes are the achievements routes. */
export function achievementsRoutes({ db, callers }: { db: Db; callers: Callers }): Route[] {
  return [
    {
      family: 'console',
      admit: [callers.user],
      method: 'GET',
      url: '/api/achievements',
      handler: async (call) =>
        answer(await listAchievements(db, call.actor), { headers: { 'Cache-Control': 'no-store' } }),
    },
  ];
}
