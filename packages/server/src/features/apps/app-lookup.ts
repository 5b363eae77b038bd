import type { AppSettings } from '@basalt/shared';
import { accountTag } from '../../db/bus/account-events.js';
import type { Db } from '../../db/database.js';
import { busCache } from '../../lib/cache/bus-cache.js';
import { jwtSignatureOf } from '../../lib/crypto/tokens.js';
import { readAppSettings, readStoredProviders, type SettingsDefaults, type StoredProvider } from './app-settings.js';
import { type AppRow, findAppByRef } from './apps.store.js';
import './app-events.js';

// Every request made with an app key, and every end user's token, names an app by its `ref`: finding the app is
// on the hot path, so each process keeps apps by ref in a bus cache (lib/cache) and recognises their current keys
// by their text. Rolling the keys or changing the settings publishes `app.changed`, which forgets the app on every
// node, so an old key is refused everywhere at once.

const TTL_MS = 60_000;
const MAX_ENTRIES = 10_000;

/** AppRecord is an app as the APIs use it: its owner, ref, keys and settings (defaults filled in). */
export interface AppRecord {
  accountId: string;
  ref: string;
  anonKey: string;
  serviceKey: string;
  settings: AppSettings;
  /** The OAuth providers with their sealed client secrets (settings.providers shows them without). */
  providers: StoredProvider[];
}

/** AppKeyRole is the role of an app key. */
export type AppKeyRole = 'anon' | 'service_role';

/** AppKeyMatch is an app key recognised: its app and role. */
export interface AppKeyMatch {
  app: AppRecord;
  role: AppKeyRole;
}

type MaybePromise<T> = T | Promise<T>;

/** AppLookup finds apps by ref and recognises their keys. */
export interface AppLookup {
  /** byRef returns the app of a ref, or null. */
  byRef(ref: string): MaybePromise<AppRecord | null>;
  /** matchKey returns the app and role of one of an app's current keys, or null (not an app key, or an old one). */
  matchKey(key: string): MaybePromise<AppKeyMatch | null>;
  /** evict forgets an app (by ref, or every app when the ref is unknown). */
  evict(ref: string | null): void;
}

/** toAppRecord reads a stored app. */
export function toAppRecord(row: AppRow, defaults: SettingsDefaults): AppRecord {
  return {
    accountId: row.account_id,
    ref: row.ref,
    anonKey: row.anon_key,
    serviceKey: row.service_key,
    settings: readAppSettings(row.settings, defaults),
    providers: readStoredProviders(row.settings),
  };
}

/**
 * refOfKey reads the `ref` claim of a key-shaped JWT without verifying it (an app key is recognised by being the
 * exact text stored for its app, which only the instance signs), or null when it has none.
 */
export function refOfKey(key: string): string | null {
  const first = key.indexOf('.');
  const last = key.lastIndexOf('.');
  if (first <= 0 || last === first || key.length > 4096) return null;
  try {
    const claims: unknown = JSON.parse(Buffer.from(key.slice(first + 1, last), 'base64url').toString('utf8'));
    if (typeof claims !== 'object' || claims === null) return null;
    const ref = (claims as { ref?: unknown }).ref;
    return typeof ref === 'string' && /^[a-z]{20}$/.test(ref) ? ref : null;
  } catch {
    return null;
  }
}

/** createAppLookup makes a lookup over one database. */
export function createAppLookup(
  db: Db,
  defaults: SettingsDefaults,
  { now = Date.now }: { now?: () => number } = {},
): AppLookup {
  // Keys seen to be some app's key, by their signatures (jwtSignatureOf): no JWT to decode on the next request
  // with them. Only a memo of which app a key names: the app's current keys decide.
  const knownKeys = new Map<string, { key: string; ref: string }>();
  const apps = busCache<AppRecord | null>(db, {
    load: async (ref) => {
      const row = await findAppByRef(db.kysely, ref);
      return row ? toAppRecord(row, defaults) : null;
    },
    invalidatedBy: {
      'app.changed': ({ ref }) => (ref === null ? 'all' : { keys: [ref] }),
      'account.deleted': ({ accountId }) => ({ tags: [accountTag(accountId)] }),
    },
    tagsOf: (_ref, app) => (app ? [accountTag(app.accountId)] : []),
    ttlMs: TTL_MS,
    maxEntries: MAX_ENTRIES,
    now,
  });

  const match = (key: string, app: AppRecord | null): AppKeyMatch | null => {
    if (!app) return null;
    if (key === app.anonKey) return { app, role: 'anon' };
    if (key === app.serviceKey) return { app, role: 'service_role' };
    return null;
  };

  // A key that matched is known from then on (while the bus is trusted): no JWT to decode next time.
  const remembered = (key: string, ref: string, app: AppRecord | null, known: boolean) => {
    const matched = match(key, app);
    if (matched && !known && db.bus.reliable) {
      if (knownKeys.size >= MAX_ENTRIES) knownKeys.clear();
      knownKeys.set(jwtSignatureOf(key), { key, ref });
    }
    return matched;
  };

  return {
    byRef: (ref) => apps.get(ref),
    matchKey(key) {
      const entry = knownKeys.get(jwtSignatureOf(key));
      const knownRef = entry?.key === key ? entry.ref : undefined;
      const known = knownRef !== undefined;
      const ref = knownRef ?? refOfKey(key);
      if (ref === null) return null;
      const found = apps.get(ref);
      return found instanceof Promise
        ? found.then((app) => remembered(key, ref, app, known))
        : remembered(key, ref, found, known);
    },
    evict: (ref) => apps.forget(ref === null ? 'all' : { keys: [ref] }),
  };
}
