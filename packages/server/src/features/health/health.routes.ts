import { BASALT_VERSION, databaseCheckRequestSchema } from '@basalt/shared';
import type { Callers } from '../../http/caller.js';
import { answer, type Route } from '../../http/routes/route.js';
import { parseInput } from '../../http/validation.js';
import type { DatabaseHealthService } from './database-health.service.js';

const NO_STORE = { 'Cache-Control': 'no-store' };

/**
 * healthRoutes are the liveness probe GET /api/health for load balancers (no auth, no database: it answers as long
 * as the process serves requests) and, for signed-in users, the database health: GET /api/health/database and
 * POST /api/health/database/check {fullDiagnostic}.
 */
export function healthRoutes({ callers, health }: { callers: Callers; health: DatabaseHealthService }): Route[] {
  return [
    {
      method: 'GET',
      url: '/api/health',
      family: 'console',
      admit: [],
      handler: () => ({ status: 'ok', version: BASALT_VERSION }),
    },
    {
      method: 'GET',
      url: '/api/health/database',
      family: 'console',
      admit: [callers.user],
      handler: async () => answer(await health.health(), { headers: NO_STORE }),
    },
    {
      method: 'POST',
      url: '/api/health/database/check',
      family: 'console',
      admit: [callers.user],
      docs: { summary: 'Check the database now', body: databaseCheckRequestSchema },
      handler: async (call) => {
        const { fullDiagnostic } = parseInput(databaseCheckRequestSchema, call.body);
        return answer(await health.check({ fullDiagnostic }), { headers: NO_STORE });
      },
    },
  ];
}
