import type { Db } from '../../db/database.js';
import type { Callers } from '../../http/caller.js';
import { idOf } from '../../http/ids.js';
import { answer, type Route } from '../../http/routes/route.js';
import { createSecret, deleteSecret, listSecrets, revealSecret } from './secrets.service.js';
import type { Vault } from './secrets-vault.js';

// The console's secrets calls; a signed-in user only, never an API key:
//   GET    /api/secrets            the actor's secrets: [{id, name, isEncrypted, createdAt}] (never a value)
//   POST   /api/secrets            {name, value, isEncrypted = true} → 201 the secret, without its value
//   GET    /api/secrets/:id/value  → {value}: the one response that carries a value (recorded in activity)
//   DELETE /api/secrets/:id        → {success, message}

/** secretsRoutes are the secrets routes. */
export function secretsRoutes({ db, callers, vault }: { db: Db; callers: Callers; vault: Vault }): Route[] {
  const user = { family: 'console', admit: [callers.user] } as const;
  return [
    { ...user, method: 'GET', url: '/api/secrets', handler: (call) => listSecrets(db, call.actor) },
    {
      ...user,
      method: 'POST',
      url: '/api/secrets',
      handler: async (call) => answer(await createSecret(db, call.actor, call.body, vault), { status: 201 }),
    },
    {
      ...user,
      method: 'GET',
      url: '/api/secrets/:id/value',
      handler: async (call) =>
        answer(await revealSecret(db, call.actor, idOf(call), vault), { headers: { 'Cache-Control': 'no-store' } }),
    },
    {
      ...user,
      method: 'DELETE',
      url: '/api/secrets/:id',
      handler: async (call) => {
        await deleteSecret(db, call.actor, idOf(call));
        return { success: true, message: 'Secret deleted successfully' };
      },
    },
  ];
}
