import type { Db } from '../../db/database.js';
import { findSessionById } from './sessions.store.js';
import { APP_TABLES, CONSOLE_TABLES, type PoolTables } from './user-pool.js';

// An access token names its session; a token of a session that has ended (sign-out, a password change, a
// detected refresh-token reuse, a ban, a deleted account) is refused at once, on every node. Reading the session
// on every request would cost a query per request, so each process remembers what it read: an entry holds until
// `sessions.ended` for its account arrives on the bus (this node at once, the others within milliseconds), or
// for TTL_MS as a backstop for a lost event. While the bus may be missing events nothing is remembered.
//
// A session in use is read again in the background during its entry's last REFRESH_MS, while the entry still
// answers: were the entry let lapse, every request arriving until the read came back would wait for it (and a
// fast read would take Fastify's slower path), thousands at once under load, a stall every TTL_MS. One read per
// session is in flight at a time, whoever asks.

const TTL_MS = 60_000;
const REFRESH_MS = 10_000;
const MAX_ENTRIES = 50_000;

interface Entry {
  accountId: string;
  live: boolean;
  expiresAt: number;
}

/** SessionLiveness tells whether a session has not ended. */
export interface SessionLiveness {
  /** isLive answers at once when this process knows the session, else after reading it. */
  isLive(sessionId: string, accountId: string): boolean | Promise<boolean>;
}

const LIVENESS = Symbol('session liveness');
const END_USER_LIVENESS = Symbol('end-user session liveness');

/** sessionLivenessOf returns this process's session liveness of one open database, kept exact by the bus. */
export function sessionLivenessOf(db: Db): SessionLiveness {
  return db.state(LIVENESS, () => {
    const liveness = createSessionLiveness(db, CONSOLE_TABLES);
    db.bus.subscribe('sessions.ended', ({ accountId }) => liveness.forget(accountId));
    return liveness;
  });
}

/**
 * endUserSessionLivenessOf is the same for the end users of apps (their sessions are in the apps' tables):
 * `app-sessions.ended` names the user, or nobody when an app went with its account (then all is forgotten).
 */
export function endUserSessionLivenessOf(db: Db): SessionLiveness {
  return db.state(END_USER_LIVENESS, () => {
    const liveness = createSessionLiveness(db, APP_TABLES);
    db.bus.subscribe('app-sessions.ended', ({ userId }) => liveness.forget(userId));
    return liveness;
  });
}

/** createSessionLiveness is one process's liveness of the sessions in `tables` (exported for its tests' clock). */
export function createSessionLiveness(
  db: Db,
  tables: PoolTables,
  now: () => number = Date.now,
): SessionLiveness & { forget(userId: string | null): void } {
  const entries = new Map<string, Entry>();
  const reading = new Map<string, Promise<boolean>>();
  const byAccount = new Map<string, Set<string>>();
  let generation = 0;

  const forgetAll = () => {
    generation++;
    entries.clear();
    byAccount.clear();
  };
  const forgetAccount = (accountId: string) => {
    generation++;
    for (const sessionId of byAccount.get(accountId) ?? []) entries.delete(sessionId);
    byAccount.delete(accountId);
  };
  db.bus.onReset(forgetAll);

  const remember = (sessionId: string, entry: Entry) => {
    if (entries.size >= MAX_ENTRIES) {
      const oldest = entries.keys().next().value;
      if (oldest !== undefined) entries.delete(oldest);
    }
    entries.set(sessionId, entry);
    const sessions = byAccount.get(entry.accountId) ?? new Set<string>();
    byAccount.set(entry.accountId, sessions);
    sessions.add(sessionId);
  };

  // Reads a session (or joins the read in flight) and remembers what it found.
  const read = (sessionId: string, accountId: string): Promise<boolean> => {
    const key = `${sessionId} ${accountId}`;
    const pending = reading.get(key);
    if (pending) return pending;
    const seen = generation;
    const made = findSessionById(db.kysely, tables, sessionId)
      .then((session) => {
        // A session belongs to one account: a token naming another account's session is not live.
        const live = session !== undefined && session.account_id === accountId;
        if (seen === generation && db.bus.reliable) remember(sessionId, { accountId, live, expiresAt: now() + TTL_MS });
        return live;
      })
      .finally(() => reading.delete(key));
    reading.set(key, made);
    return made;
  };

  return {
    forget: (userId) => (userId === null ? forgetAll() : forgetAccount(userId)),
    isLive(sessionId, accountId) {
      const entry = entries.get(sessionId);
      const at = now();
      if (entry && entry.expiresAt > at && db.bus.reliable && entry.accountId === accountId) {
        if (entry.expiresAt - at < REFRESH_MS) read(sessionId, accountId).catch(() => {});
        return entry.live;
      }
      return read(sessionId, accountId);
    },
  };
}
