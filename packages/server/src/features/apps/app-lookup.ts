import type { AppSettings } from '@basalt/shared';
import type { Db } from '../../db/database.js';
import { jwtSignatureOf } from '../../lib/crypto/tokens.js';
import { readAppSettings, readStoredProviders, type SettingsDefaults, type StoredProvider } from './app-settings.js';
import { type AppRow, findAppByRef } from './apps.store.js';
import { appsConfigOf } from './apps-config.js';
import './app-events.js';

// Every request made with an app key, and every end user's token, names an app by its `ref`: finding the app is
// on the hot path, so each process caches apps by ref and recognises their current keys by their text. Rolling
// the keys or changing the settings publishes `app.changed`, which evicts the app on every node (this one at
// once, the others within milliseconds), so an old key is refused everywhere at once. TTL_MS is a backstop for
// a lost event; while the bus may be missing events nothing is trusted, as in the other caches. An app in use is
// read again in the background during its entry's last REFRESH_MS, while the entry still answers: let lapse, every
// request with its keys would wait for the read together.

const TTL_MS = 60_000;
const REFRESH_MS = 10_000;
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

interface Entry {
  found: MaybePromise<AppRecord | null>;
  expiresAt: number;
}

/** createAppLookup makes a lookup over one database; nothing cached is trusted while `trusted` says no. */
export function createAppLookup(
  db: Db,
  defaults: SettingsDefaults,
  { now = Date.now, trusted = () => true }: { now?: () => number; trusted?: () => boolean } = {},
): AppLookup {
  const entries = new Map<string, Entry>();
  // Keys seen to be some app's current key, by their signatures (jwtSignatureOf): no JWT to decode on the next
  // request with them.
  const knownKeys = new Map<string, { key: string; ref: string }>();
  let generation = 0;

  const load = (ref: string): Entry => {
    const seen = generation;
    const entry: Entry = { found: null, expiresAt: now() + TTL_MS };
    entry.found = findAppByRef(db.kysely, ref).then(
      (row) => {
        const app = row ? toAppRecord(row, defaults) : null;
        if (entries.get(ref) === entry) {
          // An eviction while reading: the row read may be the old one, so it is not kept.
          if (seen === generation) entry.found = app;
          else entries.delete(ref);
        }
        return app;
      },
      (error: unknown) => {
        if (entries.get(ref) === entry) entries.delete(ref);
        throw error;
      },
    );
    if (entries.size >= MAX_ENTRIES) {
      const oldest = entries.keys().next().value;
      if (oldest !== undefined) entries.delete(oldest);
    }
    entries.set(ref, entry);
    return entry;
  };

  const refreshing = new Set<string>();
  // Reads an app again and replaces its entry once read.
  const refresh = (ref: string, stale: Entry) => {
    if (refreshing.has(ref)) return;
    refreshing.add(ref);
    findAppByRef(db.kysely, ref)
      .then(
        (row) => {
          // An eviction meanwhile removed the entry: the row read may be the old one.
          if (entries.get(ref) === stale) {
            entries.set(ref, { found: row ? toAppRecord(row, defaults) : null, expiresAt: now() + TTL_MS });
          }
        },
        // The entry answers until it ends; then a read in the request's path tries again.
        () => {},
      )
      .finally(() => refreshing.delete(ref));
  };

  const byRef = (ref: string): MaybePromise<AppRecord | null> => {
    let entry = entries.get(ref);
    const at = now();
    if (!entry || entry.expiresAt <= at || !trusted()) entry = load(ref);
    else if (entry.expiresAt - at < REFRESH_MS && !(entry.found instanceof Promise)) refresh(ref, entry);
    return entry.found;
  };

  const match = (key: string, app: AppRecord | null): AppKeyMatch | null => {
    if (!app) return null;
    if (key === app.anonKey) return { app, role: 'anon' };
    if (key === app.serviceKey) return { app, role: 'service_role' };
    return null;
  };

  // A key that matched is known from then on (while the bus is trusted): no JWT to decode next time.
  const remembered = (key: string, ref: string, app: AppRecord | null, known: boolean) => {
    const matched = match(key, app);
    if (matched && !known && trusted()) {
      if (knownKeys.size >= MAX_ENTRIES) knownKeys.clear();
      knownKeys.set(jwtSignatureOf(key), { key, ref });
    }
    return matched;
  };

  return {
    byRef,
    matchKey(key) {
      const entry = knownKeys.get(jwtSignatureOf(key));
      const knownRef = entry?.key === key ? entry.ref : undefined;
      const known = knownRef !== undefined;
      const ref = knownRef ?? refOfKey(key);
      if (ref === null) return null;
      const found = byRef(ref);
      return found instanceof Promise
        ? found.then((app) => remembered(key, ref, app, known))
        : remembered(key, ref, found, known);
    },
    evict(ref) {
      generation++;
      knownKeys.clear();
      if (ref === null) entries.clear();
      else entries.delete(ref);
    },
  };
}

const LOOKUP = Symbol('apps');

/** appLookupOf returns this process's lookup of one open database, kept exact by the bus. */
export function appLookupOf(db: Db): AppLookup {
  return db.state(LOOKUP, () => {
    const lookup = createAppLookup(db, appsConfigOf(db), { trusted: () => db.bus.reliable });
    db.bus.subscribe('app.changed', ({ ref }) => lookup.evict(ref));
    db.bus.onReset(() => lookup.evict(null));
    return lookup;
  });
}
