import type { Db } from '../../db/database.js';
import { countVerifiedFactors } from './mfa.store.js';
import { CONSOLE_TABLES } from './user-pool.js';
import './session-events.js';

// Whether a console account has a verified MFA factor, asked by the principal of every console request made with
// an aal1 session (http/principal.ts): such a session reaches only /auth/v1 until the code raises it to aal2. Each
// process remembers the answers; `factors.changed` (a factor verified or removed, on any node) forgets the
// account's, a reset of the bus forgets all, and TTL_MS is the backstop. An app's end users are not concerned:
// their apps read `aal` from the token, as on Supabase. An account in use is read again in the background during
// its entry's last REFRESH_MS, one read at a time, while the entry still answers (as session liveness is).

const TTL_MS = 60_000;
const REFRESH_MS = 10_000;
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
  const known = new Map<string, { needed: boolean; expiresAt: number }>();
  const reading = new Map<string, Promise<boolean>>();
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
  // Reads an account's factors (or joins the read in flight) and remembers the answer.
  const read = (accountId: string): Promise<boolean> => {
    const pending = reading.get(accountId);
    if (pending) return pending;
    const seen = generation;
    const made = countVerifiedFactors(db.kysely, CONSOLE_TABLES, accountId)
      .then((count) => {
        const needed = count > 0;
        if (seen === generation && db.bus.reliable) {
          if (known.size >= MAX_ENTRIES) known.clear();
          known.set(accountId, { needed, expiresAt: now() + TTL_MS });
        }
        return needed;
      })
      .finally(() => reading.delete(accountId));
    reading.set(accountId, made);
    return made;
  };
  return {
    needed(accountId) {
      const entry = known.get(accountId);
      const at = now();
      if (entry && entry.expiresAt > at && db.bus.reliable) {
        if (entry.expiresAt - at < REFRESH_MS) read(accountId).catch(() => {});
        return entry.needed;
      }
      return read(accountId);
    },
  };
}
