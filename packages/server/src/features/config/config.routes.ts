import { BASALT_VERSION, type ConsoleConfig, SITE_NAME } from '@basalt/shared';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.js';

/** configRoutes serves GET /api/config: what the console needs before anyone signs in. */
export async function configRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  app.get('/api/config', async (_request, reply): Promise<ConsoleConfig> => {
    reply.header('Cache-Control', 'no-cache');
    return {
      siteName: SITE_NAME,
      anonKey: ctx.tokens.anonKey,
      databaseType: ctx.db.dialect.name,
      mailConfigured: ctx.config.smtpUrl !== null,
      version: BASALT_VERSION,
    };
  });
}
