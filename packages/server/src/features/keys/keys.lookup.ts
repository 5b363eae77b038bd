import { API_KEY_PREFIX } from '@basalt/shared';
import type { Db } from '../../db/database.js';
import { sha256 } from '../../lib/crypto/tokens.js';
import { findApiKeyByHash, touchApiKey } from './keys.store.js';

// Every public-API request carries a key, so finding its owner is on the hot path: a per-process cache keyed by
// the secret itself, so that a cached key costs one Map lookup (hashing the secret cost more than the rest of
// the lookup); the database is read by the secret's sha256 (the secret is 32 random bytes, so a fast hash is
// as safe as a slow one), and an index from that hash to the cached secret lets a deletion evict it.
//
// Limits and trade-offs:
// - Deleting a key publishes `key.revoked` on the bus, which evicts it on every node (this one at once, the others
//   within milliseconds). An entry (found or not found) is otherwise trusted for CACHE_TTL_MS, a backstop for a
//   lost event; while the bus may be missing events (its connection is down), entries are not trusted at all.
// - At most MAX_ENTRIES entries; the oldest go first, so a flood of made-up keys costs lookups, not memory.
//   The secrets of live entries stay in memory for at most CACHE_TTL_MS after their last load, as the
//   requests that carried them do.
// - Concurrent requests with the same uncached key share one database read. A key in use is read again in the
//   background during its entry's last REFRESH_MS, while the entry still answers: let lapse, every request with it
//   would wait for the read together (a stall a minute in the p99 of a busy key).
// - `last_used_at` is written at most once per TOUCH_EVERY_MS per key and process, off the request path.

/** CACHE_TTL_MS is how long a process trusts what it read about a key without hearing of it. */
export const CACHE_TTL_MS = 60_000;
const MAX_ENTRIES = 10_000;
const REFRESH_MS = 10_000;
const TOUCH_EVERY_MS = 60_000;
// `bsk_` + 32 random bytes in base64url (43 characters); anything else is refused without a lookup.
const KEY_SHAPE = new RegExp(`^${API_KEY_PREFIX}[A-Za-z0-9_-]{43}$`);

/** ApiKeyIdentity is the owner of a valid key. */
export interface ApiKeyIdentity {
  keyId: number;
  accountId: string;
}

interface Entry {
  /** The secret's sha256, what the database and evict() know the key by. */
  hash: string;
  found: Promise<ApiKeyIdentity | null> | ApiKeyIdentity | null;
  expiresAt: number;
  touchedAt: number;
}

/** ApiKeyLookup resolves secrets to their keys through the cache. */
export interface ApiKeyLookup {
  /** resolve returns the key a secret belongs to, or null for an unknown, deleted or malformed secret. */
  resolve(secret: string): Promise<ApiKeyIdentity | null> | ApiKeyIdentity | null;
  /** evict forgets a key (by its secret's hash) so that this process refuses it from now on. */
  evict(keyHash: string): void;
  /** clear forgets every key. */
  clear(): void;
}

/**
 * createApiKeyLookup makes a lookup over one database; `now` is injectable for tests, and nothing cached is
 * trusted while `trusted` says no.
 */
export function createApiKeyLookup(
  db: Db,
  options: { now?: () => number; trusted?: () => boolean } = {},
): ApiKeyLookup {
  const now = options.now ?? Date.now;
  const trusted = options.trusted ?? (() => true);
  // By secret; `secrets` maps each entry's hash back to its secret, for evict().
  const entries = new Map<string, Entry>();
  const secrets = new Map<string, string>();

  const forget = (secret: string) => {
    const entry = entries.get(secret);
    if (!entry) return;
    entries.delete(secret);
    secrets.delete(entry.hash);
  };

  const touch = (identity: ApiKeyIdentity, at: number) => {
    touchApiKey(db.kysely, identity.keyId, new Date(at).toISOString()).catch(() => {
      // A lost `last_used_at` (the database closing, a busy moment) is harmless; the next use writes it.
    });
  };

  // touchedAt carries over from the entry being refreshed, so re-reading a key does not write it again.
  const load = (secret: string, at: number, touchedAt: number | null): Entry => {
    const due = touchedAt === null || at - touchedAt >= TOUCH_EVERY_MS;
    const hash = sha256(secret);
    const entry: Entry = { hash, found: null, expiresAt: at + CACHE_TTL_MS, touchedAt: due ? at : touchedAt };
    entry.found = findApiKeyByHash(db.kysely, hash).then(
      (row) => {
        const identity = row ? { keyId: Number(row.id), accountId: row.account_id } : null;
        if (entries.get(secret) === entry) entry.found = identity;
        if (identity && due) touch(identity, at);
        return identity;
      },
      (error: unknown) => {
        if (entries.get(secret) === entry) forget(secret);
        throw error;
      },
    );
    if (entries.size >= MAX_ENTRIES) {
      const oldest = entries.keys().next().value;
      if (oldest !== undefined) forget(oldest);
    }
    entries.set(secret, entry);
    secrets.set(hash, secret);
    return entry;
  };

  const refreshing = new Set<string>();
  // Reads a key again and replaces its entry once read, unless it was evicted or replaced meanwhile.
  const refresh = (secret: string, stale: Entry) => {
    if (refreshing.has(secret)) return;
    refreshing.add(secret);
    findApiKeyByHash(db.kysely, stale.hash)
      .then(
        (row) => {
          if (entries.get(secret) !== stale) return;
          const found = row ? { keyId: Number(row.id), accountId: row.account_id } : null;
          entries.set(secret, { ...stale, found, expiresAt: now() + CACHE_TTL_MS });
        },
        // The entry answers until it ends; then a read in the request's path tries again.
        () => {},
      )
      .finally(() => refreshing.delete(secret));
  };

  return {
    resolve(secret) {
      const at = now();
      let entry = entries.get(secret);
      if (entry && entry.expiresAt > at && trusted() && entry.expiresAt - at < REFRESH_MS) {
        if (!(entry.found instanceof Promise)) refresh(secret, entry);
      }
      if (!entry || entry.expiresAt <= at || !trusted()) {
        // Only a well-formed secret is looked up (and so cached).
        if (!KEY_SHAPE.test(secret)) return null;
        const touchedAt = entry?.touchedAt ?? null;
        if (entry) forget(secret);
        entry = load(secret, at, touchedAt);
      }
      const found = entry.found;
      if (found && !(found instanceof Promise) && at - entry.touchedAt >= TOUCH_EVERY_MS) {
        entry.touchedAt = at;
        touch(found, at);
      }
      return found;
    },
    evict(keyHash) {
      const secret = secrets.get(keyHash);
      if (secret !== undefined) forget(secret);
    },
    clear() {
      entries.clear();
      secrets.clear();
    },
  };
}

const LOOKUP = Symbol('api keys');

/** apiKeyLookupOf returns this process's lookup of one open database, kept exact by the bus. */
export function apiKeyLookupOf(db: Db): ApiKeyLookup {
  return db.state(LOOKUP, () => {
    const lookup = createApiKeyLookup(db, { trusted: () => db.bus.reliable });
    db.bus.subscribe('key.revoked', ({ keyHash }) => lookup.evict(keyHash));
    db.bus.onReset(() => lookup.clear());
    return lookup;
  });
}
