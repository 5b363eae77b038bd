import type { Db } from '../../db/database.js';
import { readRowCount } from '../../db/row-counts.js';
import { type Condition, crossesTables } from '../../db/user-conditions.js';
import type { TableDefinition } from '../../db/user-tables.js';
import type { RecordsChanged } from './record-events.js';
import { isEvaluable, matches } from './record-predicate.js';
import { countRows, countSample, countWithVersions, plannedRowCount } from './records.store.js';

// Counts that do not scan. PostgREST's three kinds (Prefer: count=exact|planned|estimated):
//
// - exact, no filter: the table's row count, kept in the same transaction as every write (db/row-counts.ts):
//   one point read, exact on every node at once.
// - exact, with a filter (access rules included): counted once with SQL together with the table's write versions
//   (one statement, one snapshot), and kept per process in a cache keyed by table, schema version and filter. A
//   read first reads the table's versions (the same short read as the row count): the cached count answers only
//   while it was taken at those versions, so it is exact whichever node wrote. Each committed write's
//   `records.changed` event, heard on every node, carries the count shard it wrote and the version it moved that
//   shard to; a count taken at the version before it (on that shard) is moved along by the records the write
//   changed, when Basalt can evaluate the filter exactly (record-predicate.ts): +1 for a record that now matches
//   and did not, −1 for the reverse (the shards' writes add up in any order). Anything else (a filter it cannot
//   evaluate, an event missed or out of order, a schema change) leaves the count behind its table's versions,
//   and the next read counts again.
// - planned: an estimate without a scan: PostgreSQL's planner (EXPLAIN), SQLite's count of a sample of the table
//   scaled to its row count; the exact count when it is at hand (no filter, or cached at the current versions).
// - estimated: exact up to ESTIMATED_EXACT_LIMIT planned rows, planned beyond (PostgREST with db-max-rows).
//
// Nothing is cached from inside a transaction: what it sees may roll back.

/** ESTIMATED_EXACT_LIMIT is where count=estimated stops counting exactly and answers the planned count. */
export const ESTIMATED_EXACT_LIMIT = 100_000;

// At most this many filters' counts are kept per process (the least recently used go first).
const MAX_ENTRIES = 5_000;

interface Entry {
  tableId: number;
  where: Condition;
  evaluable: boolean;
  count: number;
  /** The table's count shards' versions the count is exact at. */
  versions: number[];
}

/** CountCache holds the exact counts of filters one process has taken, by key (see keyOf). */
interface CountCache {
  entries: Map<string, Entry>;
  byTable: Map<number, Set<string>>;
  stats: CountStats;
}

/** CountStats tells how this process's filtered exact counts were answered (for tests and the benchmark). */
export interface CountStats {
  /** From the cache, at the table's current versions. */
  hits: number;
  /** Counted with SQL (first use, or the cache had fallen behind). */
  counts: number;
  /** Writes the cache followed without counting. */
  followed: number;
}

const COUNT_CACHE = Symbol('filter counts');

const keyOf = (table: TableDefinition, where: Condition) =>
  `${table.id}\u0000${table.schemaVersion}\u0000${JSON.stringify(where)}`;

function forget(cache: CountCache, key: string): void {
  const entry = cache.entries.get(key);
  if (!entry) return;
  cache.entries.delete(key);
  const keys = cache.byTable.get(entry.tableId);
  keys?.delete(key);
  if (keys?.size === 0) cache.byTable.delete(entry.tableId);
}

function remember(cache: CountCache, key: string, entry: Entry): void {
  forget(cache, key);
  if (cache.entries.size >= MAX_ENTRIES) {
    const oldest = cache.entries.keys().next().value;
    if (oldest !== undefined) forget(cache, oldest);
  }
  cache.entries.set(key, entry);
  const keys = cache.byTable.get(entry.tableId) ?? new Set<string>();
  cache.byTable.set(entry.tableId, keys);
  keys.add(key);
}

/** follow moves the counts taken at the version before a write (on its shard) along by the records it changed. */
function follow(cache: CountCache, event: RecordsChanged): void {
  const keys = cache.byTable.get(event.tableId);
  const { countShard: shard, countVersion: version } = event;
  if (!keys || typeof shard !== 'number' || typeof version !== 'number') return;
  for (const key of keys) {
    const entry = cache.entries.get(key);
    if (!entry?.evaluable || entry.versions[shard] !== version - 1) continue;
    let count = entry.count;
    for (const change of event.changes) {
      count += Number(matches(entry.where, change.record)) - Number(matches(entry.where, change.oldRecord));
    }
    entry.count = count;
    entry.versions[shard] = version;
    cache.stats.followed++;
  }
}

function countCacheOf(db: Db): CountCache {
  return db.state(COUNT_CACHE, () => {
    const cache: CountCache = { entries: new Map(), byTable: new Map(), stats: { hits: 0, counts: 0, followed: 0 } };
    db.bus.subscribe('records.changed', (event) => follow(cache, event));
    return cache;
  });
}

/** countStats is this process's tally of filtered exact counts on one database. */
export function countStats(db: Db): CountStats {
  return countCacheOf(db).stats;
}

/** exactCount counts the rows a checked condition (access rules included) selects, without a scan when it can. */
export async function exactCount(db: Db, table: TableDefinition, where: Condition | undefined): Promise<number> {
  const state = await readRowCount(db.readRows, db.dialect, table.id);
  // A table without a count row (only on a database that has not run migration 0016's count) is counted.
  if (state === null) return countRows(db.readRows, db.dialect, table, where);
  if (!where) return state.rowCount;
  // A count that reads another table changes with that table's writes too, which this cache does not follow.
  if (crossesTables(where)) return countRows(db.readRows, db.dialect, table, where);
  return filteredCount(db, table, where, state.versions);
}

const sameVersions = (a: number[], b: number[]) => a.length === b.length && a.every((v, i) => v === b[i]);

async function filteredCount(db: Db, table: TableDefinition, where: Condition, versions: number[]): Promise<number> {
  const cache = countCacheOf(db);
  const key = keyOf(table, where);
  const cached = cache.entries.get(key);
  if (cached && sameVersions(cached.versions, versions)) {
    // Most recently used last: the oldest entry is the first to go.
    cache.entries.delete(key);
    cache.entries.set(key, cached);
    cache.stats.hits++;
    return cached.count;
  }
  cache.stats.counts++;
  const counted = await countWithVersions(db.readRows, db.dialect, table, where);
  if (counted.state !== null && !db.inTransaction) {
    remember(cache, key, {
      tableId: table.id,
      where,
      evaluable: isEvaluable(table, where),
      count: counted.count,
      versions: counted.state.versions,
    });
  }
  return counted.count;
}

/** cachedCount is the exact count when it is at hand without counting (no filter, or cached at these versions). */
async function cachedCount(db: Db, table: TableDefinition, where: Condition | undefined) {
  const state = await readRowCount(db.readRows, db.dialect, table.id);
  if (state === null) return { exact: null, rowCount: null };
  if (!where) return { exact: state.rowCount, rowCount: state.rowCount };
  const cached = countCacheOf(db).entries.get(keyOf(table, where));
  const exact = cached && sameVersions(cached.versions, state.versions) ? cached.count : null;
  return { exact, rowCount: state.rowCount };
}

/** plannedCount estimates the rows a checked condition selects without counting them (see the top of the file). */
export async function plannedCount(db: Db, table: TableDefinition, where: Condition | undefined): Promise<number> {
  const { exact, rowCount } = await cachedCount(db, table, where);
  if (exact !== null) return exact;
  const planned = await plannedRowCount(db.readRows, db.dialect, table, where);
  if (planned !== null) return planned;
  if (!where) return countRows(db.readRows, db.dialect, table, undefined);
  const total = rowCount ?? (await countRows(db.readRows, db.dialect, table, undefined));
  const { sampled, matched } = await countSample(db.readRows, db.dialect, table, where);
  // The sample is the whole table when the table is no larger: then it is the exact count.
  if (sampled >= total) return matched;
  return Math.round((matched / Math.max(1, sampled)) * total);
}

/** estimatedCount is the exact count up to ESTIMATED_EXACT_LIMIT planned rows, the planned count beyond. */
export async function estimatedCount(db: Db, table: TableDefinition, where: Condition | undefined): Promise<number> {
  const planned = await plannedCount(db, table, where);
  return planned > ESTIMATED_EXACT_LIMIT ? planned : exactCount(db, table, where);
}
