import { historyQuerySchema } from '@basalt/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../app-context.js';
import { requireUser } from '../../http/principal.js';
import { parseInput } from '../../http/validation.js';
import { listHistory } from './history.service.js';
import { restoreToChange, revertChange } from './history-actions.service.js';

// The console's history calls (spec console-management §7 "History and checkpoints"; docs/history.md):
//   GET  /api/history?tableId=&page=&limit=   the caller's changes, newest first, paged: {data, pagination}
//   POST /api/history/:id/revert              undo one change → {success, message, revertedChangeId, change, table}
//   POST /api/history/:id/restore             the table as just after that change → {success, message, tableId,
//                                             changeId, reverted, undoChangeId, table}
// Another account's change answers like an unknown one (404); a conflicting later change answers 409.

// An id that is not a positive integer names no change: 404, like an unknown one.
function changeIdOf(request: FastifyRequest): number {
  const raw = (request.params as { id?: string }).id ?? '';
  return /^[1-9]\d{0,15}$/.test(raw) ? Number(raw) : -1;
}

/**
 * historyRoutes serves the change history of the caller's tables (a deleted table's too) and its revert and
 * restore actions.
 */
export async function historyRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const { db } = ctx;

  app.get('/api/history', async (request) => {
    const { accountId } = requireUser(request);
    const query = parseInput(historyQuerySchema, request.query);
    return listHistory(db.kysely, { accountId, tableId: query.tableId }, query);
  });

  app.post('/api/history/:id/revert', async (request) => revertChange(db, requireUser(request), changeIdOf(request)));

  app.post('/api/history/:id/restore', async (request) =>
    restoreToChange(db, requireUser(request), changeIdOf(request)),
  );
}
