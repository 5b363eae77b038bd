import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../app-context.js';
import { requireUser } from '../../http/principal.js';
import { createCheckpoint, listTableCheckpoints, restoreCheckpoint } from './checkpoints.service.js';

// The console's checkpoint calls (spec console-management §7 "History and checkpoints"; docs/history.md):
//   POST /api/checkpoints               {tableId, name, description?} → 201 the checkpoint
//   GET  /api/checkpoints?tableId=      the caller's checkpoints (of one table), newest first: an array
//   POST /api/checkpoints/:id/restore   the table as at the checkpoint → a restore result with `checkpoint`
// Another account's table or checkpoint answers like an unknown one (404).

// An id that is not a positive integer names no checkpoint: 404, like an unknown one.
function checkpointIdOf(request: FastifyRequest): number {
  const raw = (request.params as { id?: string }).id ?? '';
  return /^[1-9]\d{0,15}$/.test(raw) ? Number(raw) : -1;
}

/** checkpointsRoutes registers the console's checkpoint endpoints. */
export async function checkpointsRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const { db } = ctx;

  app.post('/api/checkpoints', async (request, reply) => {
    const checkpoint = await createCheckpoint(db, requireUser(request), request.body);
    return reply.status(201).send(checkpoint);
  });

  app.get('/api/checkpoints', async (request) => listTableCheckpoints(db, requireUser(request), request.query));

  app.post('/api/checkpoints/:id/restore', async (request) =>
    restoreCheckpoint(db, requireUser(request), checkpointIdOf(request)),
  );
}
