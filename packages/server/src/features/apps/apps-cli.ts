import type { Db } from '../../db/database.js';
import { findAccount, usernameOf } from '../auth/users/accounts.service.js';
import { findAccountIdByUsernameKey } from '../auth/users/accounts.store.js';
import { appKeysOf } from './apps.service.js';
import { type AppsConfig, createApps } from './apps-config.js';

/**
 * printAppKeys is `basalt keys --app <username>`: the URL, ref and both keys of that account's app (made on first
 * use), like `supabase status` for one project. Returns the exit code: 1 when no account has that username.
 */
export async function printAppKeys(db: Db, config: Omit<AppsConfig, 'secrets'>, username: string): Promise<number> {
  const accountId = await findAccountIdByUsernameKey(db.kysely, username.trim().toLowerCase());
  if (!accountId) {
    console.error(`No account has the username "${username}".`);
    return 1;
  }
  const account = await findAccount(db.kysely, accountId);
  // Printing keys opens no sealed secret.
  const secrets = {
    seal: () => Promise.reject(new Error('apps-cli: no secrets are sealed here')),
    open: () => Promise.reject(new Error('apps-cli: no secrets are opened here')),
  };
  const keys = await appKeysOf(createApps(db, { ...config, secrets }), accountId);
  console.log(`App of:           ${account ? usernameOf(account) : username}`);
  console.log(`API URL:          ${keys.url}`);
  console.log(`ref:              ${keys.ref}`);
  console.log(`anon key:         ${keys.anonKey}`);
  console.log(`service_role key: ${keys.serviceKey}`);
  return 0;
}
