import type { Db } from '../../db/database.js';
import type { TableDefinition } from './table-definition.js';

// The record APIs' hot path must not read a table's schema per request: definitions are cached per process, by
// id and by (account, lower-cased name). Every committed change publishes `table.changed` on the bus, which
// evicts the entry on every node (this one at once, the others within milliseconds through PostgreSQL). The
// TTL (dialect.userTables.definitionCacheTtlMs: never on SQLite, whose one process hears everything) is only a
// backstop for an event that did not arrive; while the bus may be missing events (its connection is down) the
// cache neither answers nor keeps anything, and it empties when the bus resets.
//
// A read that started before an eviction may return the old definition after it: remember() takes the
// generation seen before the read and keeps nothing if an eviction happened since.

interface Entry {
  table: TableDefinition;
  expiresAt: number;
}

/** TableCache holds the definitions one process has read. */
export interface TableCache {
  byId(id: number): TableDefinition | null;
  byName(accountId: string, name: string): TableDefinition | null;
  /** generation changes with every eviction; pass the one seen before a read to remember(). */
  generation(): number;
  remember(table: TableDefinition, generation: number): void;
  evict(id: number): void;
  clear(): void;
}

const TABLE_CACHE = Symbol('table definitions');

const nameKey = (accountId: string, name: string) => `${accountId}\u0000${name.toLowerCase()}`;

/** tableCacheOf returns this process's cache of one open database, kept exact by the bus. */
export function tableCacheOf(db: Db): TableCache {
  return db.state(TABLE_CACHE, () => {
    const cache = createTableCache(db.dialect.userTables.definitionCacheTtlMs, { trusted: () => db.bus.reliable });
    db.bus.subscribe('table.changed', ({ tableId }) => cache.evict(tableId));
    db.bus.onReset(() => cache.clear());
    return cache;
  });
}

/**
 * createTableCache makes an empty cache whose entries live ttlMs; nothing is answered or kept while `trusted`
 * says no.
 */
function createTableCache(
  ttlMs: number,
  { now = Date.now, trusted = () => true }: { now?: () => number; trusted?: () => boolean } = {},
): TableCache {
  const ids = new Map<number, Entry>();
  const names = new Map<string, number>();
  let generation = 0;
  const live = (entry: Entry | undefined) => (entry && entry.expiresAt > now() && trusted() ? entry.table : null);
  const drop = (id: number) => {
    const entry = ids.get(id);
    if (!entry) return;
    ids.delete(id);
    names.delete(nameKey(entry.table.accountId, entry.table.name));
  };
  return {
    byId: (id) => {
      const table = live(ids.get(id));
      if (!table) drop(id);
      return table;
    },
    byName(accountId, name) {
      const id = names.get(nameKey(accountId, name));
      if (id === undefined) return null;
      const table = live(ids.get(id));
      if (!table) drop(id);
      return table;
    },
    generation: () => generation,
    remember(table, seen) {
      if (seen !== generation || !trusted()) return;
      drop(table.id);
      ids.set(table.id, { table, expiresAt: now() + ttlMs });
      names.set(nameKey(table.accountId, table.name), table.id);
    },
    evict(id) {
      generation++;
      drop(id);
    },
    clear() {
      generation++;
      ids.clear();
      names.clear();
    },
  };
}
