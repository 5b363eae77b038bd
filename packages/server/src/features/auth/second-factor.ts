import type { Db } from '../../db/database.js';
import { countVerifiedFactors } from './mfa.store.js';
import { CONSOLE_TABLES } from './user-pool.js';
import './session-events.js';

// Whether a console account has a verified MFA factor, asked by the principal of every console request made with
// an aal1 session (http/principal.ts): such a session reaches only /auth/v1 until the code raises it to aal2. Each
// process remembers the answers; `factors.changed` (a factor verified or removed, on any node) forgets the
// account's, a reset of the bus forgets all, and TTL_MS is the backstop. An app's end users are not concerned:
// their apps read `aal` from the token, as on Supabase.

const TTL_MS = 60_000;
const MAX_ENTRIES = 50_000;
const SECOND_FACTOR = Symbol('second factor');

/** SecondFactor tells whether a console account signs in with a second factor. */
export interface SecondFactor {
  needed(accountId: string): boolean | Promise<boolean>;
}

/** secondFactorOf returns this process's answers for one open database, kept exact by the bus. */
export function secondFactorOf(db: Db): SecondFactor {
  return db.state(SECOND_FACTOR, () => {
    const known = new Map<string, { needed: boolean; expiresAt: number }>();
    let generation = 0;
    const forget = (accountId: string | null) => {
      generation++;
      if (accountId === null) known.clear();
      else known.delete(accountId);
    };
    db.bus.subscribe('factors.changed', ({ userId, ref }) => {
      if (ref === null) forget(userId);
    });
    db.bus.onReset(() => forget(null));
    return {
      needed(accountId) {
        const entry = known.get(accountId);
        if (entry && entry.expiresAt > Date.now() && db.bus.reliable) return entry.needed;
        const seen = generation;
        return countVerifiedFactors(db.kysely, CONSOLE_TABLES, accountId).then((count) => {
          const needed = count > 0;
          if (seen === generation && db.bus.reliable) {
            if (known.size >= MAX_ENTRIES) known.clear();
            known.set(accountId, { needed, expiresAt: Date.now() + TTL_MS });
          }
          return needed;
        });
      },
    };
  });
}
