import { historyQuerySchema } from '@basalt/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../app-context.js';
import { idParam } from '../../http/ids.js';
import { requireUser } from '../../http/legacy-principal.js';
import { parseInput } from '../../http/validation.js';
import { actorForChange, actorForTableIn } from '../projects/project-access.js';
import { listHistory } from './history.service.js';
import { restoreToChange, revertChange } from './history-actions.service.js';

// The console's history calls:
//   GET  /api/history?tableId=&page=&limit=   the caller's changes, newest first, paged: {data, pagination}
//   POST /api/history/:id/revert              undo one change → {success, message, revertedChangeId, change, table}
//   POST /api/history/:id/restore             the table as just after that change → {success, message, tableId,
//                                             changeId, reverted, undoChangeId, table}
// Another account's change answers like an unknown one (404); a conflicting later change answers 409.

/**
 * historyRoutes serves the change history of the caller's tables (a deleted table's too) and its revert and
 * restore actions.
 */
export async function historyRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const { db } = ctx;

  app.get('/api/history', async (request) => {
    const query = parseInput(historyQuerySchema, request.query);
    // A member reads the history of a table shared with it (its owner's entries of that table).
    const { accountId } = await actorForTableIn(db, requireUser(request), query.tableId);
    return listHistory(db, { accountId, tableId: query.tableId }, query);
  });

  const actorOf = (request: FastifyRequest) => actorForChange(db, requireUser(request), idParam(request));

  app.post('/api/history/:id/revert', async (request) => revertChange(db, await actorOf(request), idParam(request)));

  app.post('/api/history/:id/restore', async (request) =>
    restoreToChange(db, await actorOf(request), idParam(request)),
  );
}
