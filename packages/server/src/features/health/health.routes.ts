import { BASALT_VERSION } from '@basalt/shared';
import type { FastifyInstance } from 'fastify';

/** healthRoutes serves the liveness probe GET /api/health for load balancers (no auth, no database). */
export async function healthRoutes(app: FastifyInstance): Promise<void> {
  app.get('/api/health', async () => ({ status: 'ok', version: BASALT_VERSION }));
}
