import { API_KEY_PREFIX } from '@basalt/shared';
import type { Db } from '../../db/database.js';
import { sha256 } from '../../lib/crypto/tokens.js';
import { findApiKeyByHash, touchApiKey } from './keys.store.js';

// Every public-API request carries a key, so finding its owner is on the hot path: one sha256 (the secret is
// 32 random bytes, so a fast hash is as safe as a slow one) and a per-process cache keyed by that hash.
//
// Limits and trade-offs:
// - An entry (found or not found) is trusted for CACHE_TTL_MS, then re-read from the database. Deleting a key
//   evicts it from this process's cache at once; another process sharing PostgreSQL stops accepting it
//   within CACHE_TTL_MS. That is the price of not reading the database per request; SQLite has one process.
// - At most MAX_ENTRIES entries; the oldest go first, so a flood of made-up keys costs lookups, not memory.
// - Concurrent requests with the same uncached key share one database read.
// - `last_used_at` is written at most once per TOUCH_EVERY_MS per key and process, off the request path.

/** CACHE_TTL_MS is how long a process trusts what it read about a key. */
export const CACHE_TTL_MS = 5_000;
const MAX_ENTRIES = 10_000;
const TOUCH_EVERY_MS = 60_000;
// `bsk_` + 32 random bytes in base64url (43 characters); anything else is refused without a lookup.
const KEY_SHAPE = new RegExp(`^${API_KEY_PREFIX}[A-Za-z0-9_-]{43}$`);

/** ApiKeyIdentity is the owner of a valid key. */
export interface ApiKeyIdentity {
  keyId: number;
  accountId: string;
}

interface Entry {
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
}

/** createApiKeyLookup makes a lookup over one database; `now` is injectable for tests. */
export function createApiKeyLookup(db: Db, options: { now?: () => number } = {}): ApiKeyLookup {
  const now = options.now ?? Date.now;
  const entries = new Map<string, Entry>();

  const touch = (identity: ApiKeyIdentity, at: number) => {
    touchApiKey(db.kysely, identity.keyId, new Date(at).toISOString()).catch(() => {
      // A lost `last_used_at` (the database closing, a busy moment) is harmless; the next use writes it.
    });
  };

  // touchedAt carries over from the entry being refreshed, so re-reading a key does not write it again.
  const load = (hash: string, at: number, touchedAt: number | null): Entry => {
    const due = touchedAt === null || at - touchedAt >= TOUCH_EVERY_MS;
    const entry: Entry = { found: null, expiresAt: at + CACHE_TTL_MS, touchedAt: due ? at : touchedAt };
    entry.found = findApiKeyByHash(db.kysely, hash).then(
      (row) => {
        const identity = row ? { keyId: Number(row.id), accountId: row.account_id } : null;
        if (entries.get(hash) === entry) entry.found = identity;
        if (identity && due) touch(identity, at);
        return identity;
      },
      (error: unknown) => {
        if (entries.get(hash) === entry) entries.delete(hash);
        throw error;
      },
    );
    if (entries.size >= MAX_ENTRIES) {
      const oldest = entries.keys().next().value;
      if (oldest !== undefined) entries.delete(oldest);
    }
    entries.set(hash, entry);
    return entry;
  };

  return {
    resolve(secret) {
      if (!KEY_SHAPE.test(secret)) return null;
      const hash = sha256(secret);
      const at = now();
      let entry = entries.get(hash);
      if (!entry || entry.expiresAt <= at) {
        if (entry) entries.delete(hash);
        entry = load(hash, at, entry?.touchedAt ?? null);
      }
      const found = entry.found;
      if (found && !(found instanceof Promise) && at - entry.touchedAt >= TOUCH_EVERY_MS) {
        entry.touchedAt = at;
        touch(found, at);
      }
      return found;
    },
    evict(keyHash) {
      entries.delete(keyHash);
    },
  };
}

const lookups = new WeakMap<Db, ApiKeyLookup>();

/** apiKeyLookupOf returns the lookup of one open database (tests run several servers in one process). */
export function apiKeyLookupOf(db: Db): ApiKeyLookup {
  let lookup = lookups.get(db);
  if (!lookup) {
    lookup = createApiKeyLookup(db);
    lookups.set(db, lookup);
  }
  return lookup;
}
