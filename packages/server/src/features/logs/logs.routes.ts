import { logsPageQuerySchema, logsViewerQuerySchema } from '@basalt/shared';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.js';
import { requireUser } from '../../http/legacy-principal.js';
import { parseInput } from '../../http/validation.js';
import { startLogRetention } from './log-retention.js';
import { listLogsPage, listRecentLogs } from './logs.service.js';

/**
 * logsRoutes serves GET /api/logs: without `page`, the settings
 * viewer's newest entries as an array; with `page` (and `limit`), one page of the System Logs page. It also
 * runs the log retention job.
 */
export async function logsRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const retention = startLogRetention(ctx);
  app.addHook('onClose', () => retention.stop());

  app.get('/api/logs', async (request, reply) => {
    const { accountId } = requireUser(request);
    reply.header('Cache-Control', 'no-store');
    const query = (request.query ?? {}) as Record<string, unknown>;
    if (query.page === undefined) {
      return listRecentLogs(ctx.db, accountId, parseInput(logsViewerQuerySchema, query));
    }
    return listLogsPage(ctx.db, accountId, parseInput(logsPageQuerySchema, query));
  });
}
