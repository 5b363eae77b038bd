import { API_KEY_PREFIX } from '@basalt/shared';
import { accountTag } from '../../db/bus/account-events.js';
import type { Db } from '../../db/database.js';
import { busCache } from '../../lib/cache/bus-cache.js';
import { sha256 } from '../../lib/crypto/tokens.js';
import { findApiKeyByHash, touchApiKey } from './keys.store.js';
import './key-events.js';

// Every public-API request carries a key, so finding its owner is on the hot path: a bus cache keyed by the secret
// itself, so that a cached key costs one Map lookup (hashing the secret cost more than the rest of the lookup); the
// database is read by the secret's sha256 (the secret is 32 random bytes, so a fast hash is as safe as a slow one),
// and each entry is tagged with that hash, so that `key.revoked` (a deletion) forgets it on every node. Unknown
// keys are remembered too: a flood of made-up keys costs lookups, not memory (the cache's size is bounded).
// `last_used_at` is written at most once per TOUCH_EVERY_MS per key and process, off the request path.

/** CACHE_TTL_MS is how long a process trusts what it read about a key without hearing of it. */
export const CACHE_TTL_MS = 60_000;
const MAX_ENTRIES = 10_000;
const TOUCH_EVERY_MS = 60_000;
// `bsk_` + 32 random bytes in base64url (43 characters); anything else is refused without a lookup.
const KEY_SHAPE = new RegExp(`^${API_KEY_PREFIX}[A-Za-z0-9_-]{43}$`);

/** ApiKeyIdentity is the owner of a valid key. */
export interface ApiKeyIdentity {
  keyId: number;
  accountId: string;
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
  const keys = busCache<ApiKeyIdentity | null>(db, {
    load: async (secret) => {
      const row = await findApiKeyByHash(db.kysely, sha256(secret));
      return row ? { keyId: Number(row.id), accountId: row.account_id } : null;
    },
    invalidatedBy: {
      'key.revoked': ({ keyHash }) => ({ tags: [keyHash] }),
      'account.deleted': ({ accountId }) => ({ tags: [accountTag(accountId)] }),
    },
    tagsOf: (secret, found) => (found ? [sha256(secret), accountTag(found.accountId)] : [sha256(secret)]),
    ttlMs: CACHE_TTL_MS,
    maxEntries: MAX_ENTRIES,
    now,
  });
  const touchedAt = new Map<number, number>();
  const touch = (found: ApiKeyIdentity | null) => {
    if (!found) return found;
    const at = now();
    if (at - (touchedAt.get(found.keyId) ?? Number.NEGATIVE_INFINITY) < TOUCH_EVERY_MS) return found;
    if (touchedAt.size >= MAX_ENTRIES) touchedAt.clear();
    touchedAt.set(found.keyId, at);
    touchApiKey(db.kysely, found.keyId, new Date(at).toISOString()).catch(() => {
      // A lost `last_used_at` (the database closing, a busy moment) is harmless; the next use writes it.
    });
    return found;
  };
  return {
    resolve(secret) {
      // Only a well-formed secret is looked up (and so cached).
      if (!KEY_SHAPE.test(secret)) return null;
      const found = keys.get(secret);
      return found instanceof Promise ? found.then(touch) : touch(found);
    },
    evict: (keyHash) => keys.forget({ tags: [keyHash] }),
  };
}

const LOOKUP = Symbol('api keys');

/** apiKeyLookupOf returns this process's lookup of one open database, kept exact by the bus. */
export function apiKeyLookupOf(db: Db): ApiKeyLookup {
  return db.state(LOOKUP, () => createApiKeyLookup(db));
}
