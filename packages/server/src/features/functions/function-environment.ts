import { appKeysOf } from '../apps/apps.service.js';
import type { Apps } from '../apps/apps-config.js';
import { secretEnvironmentOf } from '../secrets/secrets.service.js';
import type { Vault } from '../secrets/secrets-vault.js';

/**
 * functionEnvironment is the environment of an account's functions: its secrets, and SUPABASE_URL,
 * SUPABASE_ANON_KEY and SUPABASE_SERVICE_ROLE_KEY, the account's app keys, so that createClient inside a function
 * reaches Basalt as the app's clients do. The app's service key opens only that account's own data and users,
 * which is what the function's author may see anyway. When the keys are rolled the account's function processes
 * restart with the new ones (functions-runtime.ts).
 */
export async function functionEnvironment(
  ctx: { apps: Apps; vault: Vault },
  accountId: string,
): Promise<Record<string, string>> {
  const [secrets, app] = await Promise.all([
    secretEnvironmentOf(ctx.apps.db, accountId, ctx.vault),
    appKeysOf(ctx.apps, accountId),
  ]);
  return {
    ...secrets,
    SUPABASE_URL: app.url,
    SUPABASE_ANON_KEY: app.anonKey,
    SUPABASE_SERVICE_ROLE_KEY: app.serviceKey,
  };
}
