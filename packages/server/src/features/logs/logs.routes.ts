import { logsPageQuerySchema, logsViewerQuerySchema } from '@basalt/shared';
import type { Db } from '../../db/database.js';
import type { Callers } from '../../http/caller.js';
import { answer, type Route } from '../../http/routes/route.js';
import { parseInput } from '../../http/validation.js';
import { listLogsPage, listRecentLogs } from './logs.service.js';

/**
 * logsRoutes serve GET /api/logs: without `page`, the settings viewer's newest entries as an array; with `page`
 * (and `limit`), one page of the System Logs page.
 */
export function logsRoutes({ db, callers }: { db: Db; callers: Callers }): Route[] {
  return [
    {
      method: 'GET',
      url: '/api/logs',
      family: 'console',
      admit: [callers.user],
      handler: async (call) => {
        const { query, actor } = call;
        const logs =
          query.page === undefined
            ? await listRecentLogs(db, actor, parseInput(logsViewerQuerySchema, query))
            : await listLogsPage(db, actor, parseInput(logsPageQuerySchema, query));
        return answer(logs, { headers: { 'Cache-Control': 'no-store' } });
      },
    },
  ];
}
