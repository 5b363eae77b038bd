import type { Db } from '../../db/database.js';
import '../../db/bus/account-events.js';
import { type BusCache, busCache } from '../../lib/cache/bus-cache.js';
import { findAccountFacts } from './account-facts.store.js';

// What the caller step adds to a console account's actor (http/caller.ts): whether it administers the instance.
// Read once per process and kept exact by `account.changed` and `account.deleted`.

const TTL_MS = 60_000;
const MAX_ENTRIES = 50_000;

/** AccountFacts answers the facts of console accounts from this process's cache. */
export interface AccountFacts {
  /** isAdmin tells whether an account administers the instance (false for no such account). */
  isAdmin(accountId: string): boolean | Promise<boolean>;
}

/** accountFactsOf makes this process's account facts of one open database. */
export function accountFactsOf(db: Db): AccountFacts {
  const admins: BusCache<boolean> = busCache(db, {
    load: async (accountId) => (await findAccountFacts(db.kysely, accountId))?.admin ?? false,
    invalidatedBy: {
      'account.changed': ({ accountId }) => ({ keys: [accountId] }),
      'account.deleted': ({ accountId }) => ({ keys: [accountId] }),
    },
    ttlMs: TTL_MS,
    maxEntries: MAX_ENTRIES,
  });
  return { isAdmin: (accountId) => admins.get(accountId) };
}
