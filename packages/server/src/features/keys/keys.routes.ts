import type { Db } from '../../db/database.js';
import type { Callers } from '../../http/caller.js';
import { idOf } from '../../http/ids.js';
import { answer, type Route } from '../../http/routes/route.js';
import { createApiKey, deleteApiKey, listApiKeys } from './keys.service.js';

// The console's API-key calls; a signed-in user only, never a key:
//   GET    /api/keys       the actor's keys: [{id, name, prefix, createdAt, lastUsedAt}] (never a secret)
//   POST   /api/keys       {name} → 201 {id, name, prefix, createdAt, key}: the secret, shown this once
//   DELETE /api/keys/:id   → {success, message}; the key stops working (404 for another account's key)

/** keysRoutes are the console's API-key routes. */
export function keysRoutes({ db, callers }: { db: Db; callers: Callers }): Route[] {
  const user = { family: 'console', admit: [callers.user] } as const;
  return [
    { ...user, method: 'GET', url: '/api/keys', handler: (call) => listApiKeys(db, call.actor) },
    {
      ...user,
      method: 'POST',
      url: '/api/keys',
      handler: async (call) =>
        answer(await createApiKey(db, call.actor, call.body), {
          status: 201,
          headers: { 'Cache-Control': 'no-store' },
        }),
    },
    {
      ...user,
      method: 'DELETE',
      url: '/api/keys/:id',
      handler: async (call) => {
        await deleteApiKey(db, call.actor, idOf(call));
        return { success: true, message: 'API key deleted successfully' };
      },
    },
  ];
}
