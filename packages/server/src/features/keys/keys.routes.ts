import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.js';
import { idParam } from '../../http/ids.js';
import { requireUser } from '../../http/principal.js';
import { createApiKey, deleteApiKey, listApiKeys } from './keys.service.js';

// The console's API-key calls; a signed-in user only, never a key:
//   GET    /api/keys       the actor's keys: [{id, name, prefix, createdAt, lastUsedAt}] (never a secret)
//   POST   /api/keys       {name} → 201 {id, name, prefix, createdAt, key}: the secret, shown this once
//   DELETE /api/keys/:id   → {success, message}; the key stops working (404 for another account's key)

/** keysRoutes registers the console's API-key endpoints. */
export async function keysRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const { db } = ctx;

  app.get('/api/keys', async (request) => listApiKeys(db, requireUser(request)));

  app.post('/api/keys', async (request, reply) => {
    const created = await createApiKey(db, requireUser(request), request.body);
    return reply.status(201).header('Cache-Control', 'no-store').send(created);
  });

  app.delete('/api/keys/:id', async (request) => {
    await deleteApiKey(db, requireUser(request), idParam(request));
    return { success: true, message: 'API key deleted successfully' };
  });
}
