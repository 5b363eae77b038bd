import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../app-context.js';
import { requireUser } from '../../http/legacy-principal.js';
import { createSecret, deleteSecret, listSecrets, revealSecret } from './secrets.service.js';
import { rewrapDataKeys, vaultOf } from './secrets-vault.js';

// The console's secrets calls; a signed-in user only, never an API key:
//   GET    /api/secrets            the actor's secrets: [{id, name, isEncrypted, createdAt}] (never a value)
//   POST   /api/secrets            {name, value, isEncrypted = true} → 201 the secret, without its value
//   GET    /api/secrets/:id/value  → {value}: the one response that carries a value (recorded in activity)
//   DELETE /api/secrets/:id        → {success, message}

// An id that is not a positive integer names no secret: 404, like an unknown one.
function secretIdOf(request: FastifyRequest): number {
  const raw = (request.params as { id?: string }).id ?? '';
  return /^[1-9]\d{0,15}$/.test(raw) ? Number(raw) : -1;
}

/** secretsRoutes registers the secrets endpoints; it reads the master key, re-wrapping data keys mid-rotation. */
export async function secretsRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const { db } = ctx;
  const vault = vaultOf(ctx);
  if (vault.keyring.previous) {
    const count = await rewrapDataKeys(db, vault.keyring);
    ctx.log.info({ count }, 'secrets: re-wrapped data keys under the new master key');
  }

  app.get('/api/secrets', async (request) => listSecrets(db, requireUser(request)));

  app.post('/api/secrets', async (request, reply) => {
    const created = await createSecret(db, requireUser(request), request.body, vault);
    return reply.status(201).send(created);
  });

  app.get('/api/secrets/:id/value', async (request, reply) => {
    const revealed = await revealSecret(db, requireUser(request), secretIdOf(request), vault);
    return reply.header('Cache-Control', 'no-store').send(revealed);
  });

  app.delete('/api/secrets/:id', async (request) => {
    await deleteSecret(db, requireUser(request), secretIdOf(request));
    return { success: true, message: 'Secret deleted successfully' };
  });
}
