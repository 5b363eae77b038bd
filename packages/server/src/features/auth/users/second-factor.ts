import type { Db } from '../../../db/database.js';
import { busCache } from '../../../lib/cache/bus-cache.js';
import { countVerifiedFactors } from './mfa.store.js';
import { CONSOLE_TABLES } from './user-pool.js';
import './session-events.js';

// Whether a console account has a verified MFA factor, asked by the principal of every console request made with
// an aal1 session (http/principal.ts): such a session reaches only /auth/v1 until the code raises it to aal2. A bus
// cache (lib/cache): `factors.changed` (a factor verified or removed, on any node) forgets the account's answer.
// An app's end users are not concerned: their apps read `aal` from the token, as on Supabase.

const TTL_MS = 60_000;
const MAX_ENTRIES = 50_000;
const SECOND_FACTOR = Symbol('second factor');

/** SecondFactor tells whether a console account signs in with a second factor. */
export interface SecondFactor {
  needed(accountId: string): boolean | Promise<boolean>;
}

/** secondFactorOf returns this process's answers for one open database, kept exact by the bus. */
export function secondFactorOf(db: Db): SecondFactor {
  return db.state(SECOND_FACTOR, () => createSecondFactor(db));
}

/** createSecondFactor makes one process's answers (exported for its tests' clock). */
export function createSecondFactor(db: Db, now: () => number = Date.now): SecondFactor {
  const answers = busCache<boolean>(db, {
    load: async (accountId) => (await countVerifiedFactors(db.kysely, CONSOLE_TABLES, accountId)) > 0,
    invalidatedBy: {
      'factors.changed': ({ userId, ref }) => (ref === null ? { keys: [userId] } : null),
      'account.deleted': ({ accountId }) => ({ keys: [accountId] }),
    },
    ttlMs: TTL_MS,
    maxEntries: MAX_ENTRIES,
    now,
  });
  return { needed: (accountId) => answers.get(accountId) };
}
