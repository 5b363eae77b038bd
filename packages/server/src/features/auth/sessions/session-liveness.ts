import { accountTag } from '../../../db/bus/account-events.js';
import type { Db } from '../../../db/database.js';
import { busCache } from '../../../lib/cache/bus-cache.js';
import { APP_TABLES, CONSOLE_TABLES, type PoolTables } from '../users/user-pool.js';
import { findSessionById } from './sessions.store.js';
import '../users/session-events.js';

// An access token names its session; a token of a session that has ended (sign-out, a password change, a
// detected refresh-token reuse, a ban, a deleted account) is refused at once, on every node. Reading the session
// on every request would cost a query per request, so each process remembers what it read in a bus cache
// (lib/cache): an entry holds until `sessions.ended` (or `app-sessions.ended`) names its user, or for TTL_MS as a
// backstop for a lost event, and a session in use is read again in the background before its entry ends.

const TTL_MS = 60_000;
const MAX_ENTRIES = 50_000;

/** SessionLiveness tells whether a session has not ended. */
export interface SessionLiveness {
  /** isLive answers at once when this process knows the session, else after reading it. */
  isLive(sessionId: string, userId: string): boolean | Promise<boolean>;
}

const LIVENESS = Symbol('session liveness');
const END_USER_LIVENESS = Symbol('end-user session liveness');

/** sessionLivenessOf returns this process's liveness of console accounts' sessions, kept exact by the bus. */
export function sessionLivenessOf(db: Db): SessionLiveness {
  return db.state(LIVENESS, () => createSessionLiveness(db, CONSOLE_TABLES));
}

/** endUserSessionLivenessOf is the same for the end users of apps (their sessions are in the apps' tables). */
export function endUserSessionLivenessOf(db: Db): SessionLiveness {
  return db.state(END_USER_LIVENESS, () => createSessionLiveness(db, APP_TABLES));
}

// A session belongs to one user: a token naming another user's session is not live.
const keyOf = (sessionId: string, userId: string) => `${sessionId} ${userId}`;

/** createSessionLiveness is one process's liveness of the sessions in `tables` (exported for its tests' clock). */
export function createSessionLiveness(db: Db, tables: PoolTables, now: () => number = Date.now): SessionLiveness {
  // A deleted account's own sessions end with it; so do the sessions of its app's users, who are not told apart
  // by account here: every end user's session is read again.
  const endUsers = tables === APP_TABLES;
  const sessions = busCache<boolean>(db, {
    load: async (key) => {
      const [sessionId = '', userId = ''] = key.split(' ');
      const session = await findSessionById(db.kysely, tables, sessionId);
      return session !== undefined && session.account_id === userId;
    },
    invalidatedBy: {
      'sessions.ended': ({ accountId }) => ({ tags: [accountTag(accountId)] }),
      // An app that went with its account names nobody: every end user's session is read again.
      'app-sessions.ended': ({ userId }) => (userId === null ? 'all' : { tags: [accountTag(userId)] }),
      'account.deleted': ({ accountId }) => (endUsers ? 'all' : { tags: [accountTag(accountId)] }),
    },
    tagsOf: (key) => [accountTag(key.slice(key.indexOf(' ') + 1))],
    ttlMs: TTL_MS,
    maxEntries: MAX_ENTRIES,
    now,
  });
  return { isLive: (sessionId, userId) => sessions.get(keyOf(sessionId, userId)) };
}
