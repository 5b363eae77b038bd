import type { Db } from '../../db/database.js';
import type { TableDefinition } from './table-definition.js';

// The record APIs' hot path must not read a table's schema per request (issue 3 §5): definitions are cached
// per process, by id and by (account, lower-cased name), and every change this process makes evicts the
// entry after it commits. Another process sharing PostgreSQL learns of a change when the entry expires
// (dialect.userTables.definitionCacheTtlMs, 2 s there; SQLite has one process and never expires): until then it
// may refuse a column just added (400) or meet a column just dropped, which the records service answers
// with a 409 "changed, try again" after evicting the entry. A LISTEN/NOTIFY channel could make this exact.

interface Entry {
  table: TableDefinition;
  expiresAt: number;
}

/** TableCache holds the definitions one process has read. */
export interface TableCache {
  byId(id: number): TableDefinition | null;
  byName(accountId: string, name: string): TableDefinition | null;
  remember(table: TableDefinition): void;
  evict(id: number): void;
}

const caches = new WeakMap<Db, TableCache>();

const nameKey = (accountId: string, name: string) => `${accountId}\u0000${name.toLowerCase()}`;

/** tableCacheOf returns the cache of one open database (tests run several servers in one process). */
export function tableCacheOf(db: Db): TableCache {
  let cache = caches.get(db);
  if (!cache) {
    cache = createTableCache(db.dialect.userTables.definitionCacheTtlMs);
    caches.set(db, cache);
  }
  return cache;
}

/** createTableCache makes an empty cache whose entries live ttlMs. */
export function createTableCache(ttlMs: number, now: () => number = Date.now): TableCache {
  const ids = new Map<number, Entry>();
  const names = new Map<string, number>();
  const live = (entry: Entry | undefined) => (entry && entry.expiresAt > now() ? entry.table : null);
  const evict = (id: number) => {
    const entry = ids.get(id);
    if (!entry) return;
    ids.delete(id);
    names.delete(nameKey(entry.table.accountId, entry.table.name));
  };
  return {
    byId: (id) => {
      const table = live(ids.get(id));
      if (!table) evict(id);
      return table;
    },
    byName(accountId, name) {
      const id = names.get(nameKey(accountId, name));
      if (id === undefined) return null;
      const table = live(ids.get(id));
      if (!table) evict(id);
      return table;
    },
    remember(table) {
      evict(table.id);
      ids.set(table.id, { table, expiresAt: now() + ttlMs });
      names.set(nameKey(table.accountId, table.name), table.id);
    },
    evict,
  };
}
