import { BASALT_VERSION, databaseCheckRequestSchema } from '@basalt/shared';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.js';
import { requireUser } from '../../http/legacy-principal.js';
import { parseInput } from '../../http/validation.js';
import { createDatabaseHealth } from './database-health.service.js';

/**
 * healthRoutes serves the liveness probe GET /api/health for load balancers (no auth, no database: it answers
 * as long as the process serves requests) and, for signed-in users, the database health: GET /api/health/database and POST /api/health/database/check {fullDiagnostic}.
 */
export async function healthRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  app.get('/api/health', async () => ({ status: 'ok', version: BASALT_VERSION }));

  const database = createDatabaseHealth(ctx.db);
  app.addHook('onClose', async () => database.stop());

  app.get('/api/health/database', async (request, reply) => {
    requireUser(request);
    reply.header('Cache-Control', 'no-store');
    return database.health();
  });

  app.post('/api/health/database/check', async (request, reply) => {
    requireUser(request);
    const { fullDiagnostic } = parseInput(databaseCheckRequestSchema, request.body);
    reply.header('Cache-Control', 'no-store');
    return database.check({ fullDiagnostic });
  });
}
