import type { CompiledQuery } from 'kysely';
import { textQuery } from './sql-text.js';

// The kept counts of a group of writes committed together (SQLite's group commit,
// db/dialect/sqlite-group-commit.ts). Every record write adds to its table's row count (db/row-counts.ts) and its
// history count (db/history-counts.ts); the writes of a group mostly add to the same rows, and updating them once
// per write cost about as much as inserting the record. A group sums them here instead and writes each count row
// once, just before its COMMIT:
//
// - the first write of the group to a table updates the row count at once and learns the version it moved the
//   shard to; each later one takes the next version in memory and leaves its rows to the group's sum. The
//   versions follow the order the writes ran in, and they all commit at once: a count read after the commit
//   sees the last one, and the writes' events name every version in between, in order;
// - history counts are only summed;
// - a write's part joins the group only once the write has finished (WriteCounts.keep): a write that fails is
//   rolled back to its savepoint, and what it counted goes with it.
// Nothing in a record write reads a count after adding to it: such a read would miss the group's sums.

/** RunRows runs one statement of any kind and returns its rows (none for a statement that returns none). */
export type RunRows = <R>(query: CompiledQuery<R>) => Promise<R[]>;

/** CountedRows is what a group (or one write of it) added to one table's row count and has not written yet. */
interface CountedRows {
  shard: number;
  /** The version the last counted write moved the shard to. */
  version: number;
  delta: number;
  writes: number;
}

/** CountedHistory is what a group (or one write of it) added to one account's history count of one table. */
interface CountedHistory {
  accountId: string;
  tableId: number;
  delta: number;
}

// Only SQLite groups writes: positional parameters, and one shard per count (a history count's is shard 0).
const ADD_GROUP_TO_ROW_COUNT =
  'UPDATE table_row_counts SET row_count = row_count + ?, version = version + ? WHERE table_id = ? AND shard = ?';
const ADD_GROUP_TO_HISTORY_COUNT = `INSERT INTO change_history_counts (account_id, table_id, shard, change_count)
  VALUES (?, ?, 0, ?) ON CONFLICT (account_id, table_id, shard)
  DO UPDATE SET change_count = change_history_counts.change_count + excluded.change_count`;

const historyKey = (accountId: string, tableId: number) => `${tableId}\u0000${accountId}`;

/** GroupCounts holds the count additions of one group's finished writes until its commit. */
export class GroupCounts {
  readonly rows = new Map<number, CountedRows>();
  readonly history = new Map<string, CountedHistory>();

  /** write writes the group's sums, one statement per count row; run it last before the COMMIT. */
  async write(run: RunRows): Promise<void> {
    for (const [tableId, { shard, delta, writes }] of this.rows) {
      if (writes > 0) await run(textQuery(ADD_GROUP_TO_ROW_COUNT, [delta, writes, tableId, shard]));
    }
    for (const { accountId, tableId, delta } of this.history.values()) {
      if (delta !== 0) await run(textQuery(ADD_GROUP_TO_HISTORY_COUNT, [accountId, tableId, delta]));
    }
  }
}

/** WriteCounts is one write's part of its group's counts, kept apart until the write has finished. */
export class WriteCounts {
  private readonly rows = new Map<number, CountedRows>();
  private readonly history = new Map<string, CountedHistory>();

  constructor(private readonly group: GroupCounts) {}

  /**
   * nextRowVersion adds `delta` rows to a table the group has counted already, and returns the shard and the
   * next version; null when the group has not counted the table yet (the caller updates the count row itself,
   * then calls countedRow).
   */
  nextRowVersion(tableId: number, delta: number): { shard: number; version: number } | null {
    const last = this.rows.get(tableId) ?? this.group.rows.get(tableId);
    if (!last) return null;
    const own = this.rows.get(tableId) ?? { shard: last.shard, version: last.version, delta: 0, writes: 0 };
    own.version++;
    own.delta += delta;
    own.writes++;
    this.rows.set(tableId, own);
    return { shard: own.shard, version: own.version };
  }

  /** countedRow notes that this write moved a table's shard to `version` itself (its rows are in the count). */
  countedRow(tableId: number, shard: number, version: number): void {
    this.rows.set(tableId, { shard, version, delta: 0, writes: 0 });
  }

  /** addHistory adds `delta` entries to an account's history count of a table. */
  addHistory(accountId: string, tableId: number, delta: number): void {
    const key = historyKey(accountId, tableId);
    const own = this.history.get(key);
    if (own) own.delta += delta;
    else this.history.set(key, { accountId, tableId, delta });
  }

  /** keep hands this finished write's part to the group. */
  keep(): void {
    for (const [tableId, own] of this.rows) {
      const group = this.group.rows.get(tableId);
      if (group) {
        group.version = own.version;
        group.delta += own.delta;
        group.writes += own.writes;
      } else {
        this.group.rows.set(tableId, own);
      }
    }
    for (const [key, own] of this.history) {
      const group = this.group.history.get(key);
      if (group) group.delta += own.delta;
      else this.group.history.set(key, own);
    }
  }
}
