import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.js';
import { idParam } from '../../http/ids.js';
import { requireUser } from '../../http/legacy-principal.js';
import { actorForCheckpoint, actorForTableIn } from '../projects/project-access.js';
import { createCheckpoint, listTableCheckpoints, restoreCheckpoint } from './checkpoints.service.js';

// The console's checkpoint calls:
//   POST /api/checkpoints               {tableId, name, description?} → 201 the checkpoint
//   GET  /api/checkpoints?tableId=      the caller's checkpoints (of one table), newest first: an array
//   POST /api/checkpoints/:id/restore   the table as at the checkpoint → a restore result with `checkpoint`
// Another account's table or checkpoint answers like an unknown one (404).

/** checkpointsRoutes registers the console's checkpoint endpoints. */
export async function checkpointsRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const { db } = ctx;

  app.post('/api/checkpoints', async (request, reply) => {
    const body = request.body as { tableId?: unknown } | null;
    const actor = await actorForTableIn(db, requireUser(request), body?.tableId);
    const checkpoint = await createCheckpoint(db, actor, request.body);
    return reply.status(201).send(checkpoint);
  });

  app.get('/api/checkpoints', async (request) => {
    const query = request.query as { tableId?: unknown } | null;
    return listTableCheckpoints(db, await actorForTableIn(db, requireUser(request), query?.tableId), request.query);
  });

  app.post('/api/checkpoints/:id/restore', async (request) => {
    const actor = await actorForCheckpoint(db, requireUser(request), idParam(request));
    return restoreCheckpoint(db, actor, idParam(request));
  });
}
