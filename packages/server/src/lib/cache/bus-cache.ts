import type { BusEvents, BusTopic } from '../../db/bus/event-bus.js';
import type { Db } from '../../db/database.js';

// One process's cache of something read from the database, kept exact by the bus. Every cache of Basalt is one
// of these: table definitions, API keys, apps, session liveness, second factors, function routes, account facts,
// plans. Its rules, written once:
// - get answers at once (synchronously) from a live entry; otherwise it loads, and concurrent gets of a key share
//   one load.
// - A committed change publishes a topic on the bus; `invalidatedBy` maps each topic's payload to the keys or tags
//   it makes stale, on every node (this one at once, the others within milliseconds).
// - ttlMs is only a backstop for an event that did not arrive. An entry in use is read again in the background
//   during its last refreshAheadMs, one load per key at a time, while it still answers: let lapse, every request
//   arriving until the read came back would wait for it together (a stall each ttlMs in the p99 of a busy key).
// - A load that started before an invalidation may return the old value after it: it is answered, not kept.
// - While the bus may be missing events (its connection is down) nothing is answered from memory or kept, and a
//   reset of the bus forgets everything.
// - At most maxEntries entries; the oldest go first, so a flood of made-up keys costs loads, not memory.

/** Forget says what an event makes stale: keys, tags (groups of entries), everything, or nothing (null). */
export type Forget = { keys?: readonly string[]; tags?: readonly string[] } | 'all' | null;

/** Invalidations map bus topics to what each of their events makes stale. */
export type Invalidations = { [T in BusTopic]?: (payload: BusEvents[T]) => Forget };

type MaybePromise<T> = T | Promise<T>;

/** BusCacheOptions describe one cache. */
export interface BusCacheOptions<V> {
  /** load reads a key's value. */
  load(key: string): Promise<V>;
  invalidatedBy: Invalidations;
  /** tagsOf names the groups a loaded entry belongs to, for invalidation by tag (an account, a table). */
  tagsOf?: (key: string, value: V) => readonly string[];
  /** keep decides whether a loaded value is kept (default: always); a value not kept is loaded again next time. */
  keep?: (value: V) => boolean;
  /** ttlMs is how long an entry is trusted without an event; Infinity for as long as the bus is reliable. */
  ttlMs: number;
  /** refreshAheadMs is the last part of an entry's life in which using it reads it again (default 10 s). */
  refreshAheadMs?: number;
  maxEntries: number;
  /** now is the clock (tests). */
  now?: () => number;
}

/** BusCache is one process's cache of one kind of value. */
export interface BusCache<V> {
  /** get answers a key's value: at once from a live entry, else once loaded. */
  get(key: string): MaybePromise<V>;
  /** peek answers a live entry's value without loading, or undefined. */
  peek(key: string): V | undefined;
  /** forget drops what an event would (used where a change is noticed without one). */
  forget(what: Forget): void;
}

interface Entry<V> {
  value: MaybePromise<V>;
  expiresAt: number;
  tags: readonly string[];
}

const DEFAULT_REFRESH_AHEAD_MS = 10_000;

/** busCache makes a cache over one open database's bus. */
export function busCache<V>(db: Db, options: BusCacheOptions<V>): BusCache<V> {
  const { load, tagsOf, keep, ttlMs, maxEntries } = options;
  const refreshAheadMs = options.refreshAheadMs ?? DEFAULT_REFRESH_AHEAD_MS;
  const now = options.now ?? Date.now;
  const entries = new Map<string, Entry<V>>();
  const byTag = new Map<string, Set<string>>();
  const refreshing = new Set<string>();
  let generation = 0;

  const drop = (key: string) => {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    for (const tag of entry.tags) {
      const keys = byTag.get(tag);
      keys?.delete(key);
      if (keys?.size === 0) byTag.delete(tag);
    }
  };

  const forget = (what: Forget) => {
    if (what === null) return;
    generation++;
    if (what === 'all') {
      entries.clear();
      byTag.clear();
      return;
    }
    for (const key of what.keys ?? []) drop(key);
    for (const tag of what.tags ?? []) for (const key of [...(byTag.get(tag) ?? [])]) drop(key);
  };

  // Keeps a loaded value in place of `entry` (unless another took its place), unless an invalidation came
  // meanwhile (the value may be the old one) or the bus is unreliable.
  const settle = (key: string, value: V, seen: number, entry: Entry<V> | null) => {
    if (entries.get(key) !== entry) return;
    drop(key);
    if (seen !== generation || !db.bus.reliable || (keep && !keep(value))) return;
    if (entries.size >= maxEntries) {
      const oldest = entries.keys().next().value;
      if (oldest !== undefined) drop(oldest);
    }
    const tags = tagsOf?.(key, value) ?? [];
    entries.set(key, { value, expiresAt: now() + ttlMs, tags });
    for (const tag of tags) {
      const keys = byTag.get(tag) ?? new Set<string>();
      byTag.set(tag, keys);
      keys.add(key);
    }
  };

  const loadInto = (key: string): Promise<V> => {
    const seen = generation;
    let entry: Entry<V> | null = null;
    const loading = load(key).then(
      (value) => {
        settle(key, value, seen, entry);
        return value;
      },
      (error: unknown) => {
        if (entries.get(key) === entry) entries.delete(key);
        throw error;
      },
    );
    entry = { value: loading, expiresAt: Number.POSITIVE_INFINITY, tags: [] };
    entries.set(key, entry);
    return loading;
  };

  const refresh = (key: string, stale: Entry<V>) => {
    if (refreshing.has(key)) return;
    refreshing.add(key);
    const seen = generation;
    load(key)
      .then(
        (value) => settle(key, value, seen, stale),
        // The entry answers until it ends; then a load in the request's path tries again.
        () => {},
      )
      .finally(() => refreshing.delete(key));
  };

  const live = (key: string): Entry<V> | null => {
    const entry = entries.get(key);
    if (!entry || !db.bus.reliable) return null;
    const at = now();
    if (entry.expiresAt <= at) return null;
    if (entry.expiresAt - at < refreshAheadMs && !(entry.value instanceof Promise)) refresh(key, entry);
    return entry;
  };

  for (const [topic, toForget] of Object.entries(options.invalidatedBy)) {
    db.bus.subscribe(topic as BusTopic, (payload) => forget((toForget as (p: unknown) => Forget)(payload)));
  }
  db.bus.onReset(() => forget('all'));

  return {
    get(key) {
      const entry = live(key);
      if (entry) return entry.value;
      // A pending load is shared even when the bus is unreliable; a finished one is not trusted then.
      const pending = entries.get(key);
      if (pending && pending.value instanceof Promise) return pending.value;
      return loadInto(key);
    },
    peek(key) {
      const entry = live(key);
      return entry && !(entry.value instanceof Promise) ? entry.value : undefined;
    },
    forget,
  };
}
