import type { AuthDeps } from '../auth-deps.js';
import type { UserRow } from '../users/user-pool.js';

/**
 * signupsOpen tells whether a pool takes new users now: an app by its own settings; console accounts also by the
 * instance's setting, which an administrator changes at any time (so it is read per sign-up, from the cache).
 */
export async function signupsOpen<R extends UserRow>(deps: AuthDeps<R>): Promise<boolean> {
  if (!deps.pool.settings.signupsAllowed) return false;
  if (deps.pool.app) return true;
  return (await deps.ctx.instance.get()).signupsAllowed;
}
