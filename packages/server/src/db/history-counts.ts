import type { Db } from './database.js';
import { textQuery } from './sql-text.js';
import type { Executor } from './user-tables.js';

// How many history entries each account has of each table, kept in `change_history_counts` in the same
// transaction as the entries themselves (features/journal adds what it records, history retention takes away
// what it prunes; an account's deletion cascades), so the History page's total is a short read instead of a
// count(*) over a million entries, exact on every node at once: nothing is cached in a process.
//
// Like the row counts (db/row-counts.ts), a table's count is split over `rowCountShards` rows (1 on SQLite, 32
// on PostgreSQL): a write adds to one shard picked at random and holds only that row's lock until it commits,
// so concurrent writes to one table rarely wait for each other. Shards are created by the first write that picks
// them; a shard may go below zero (retention subtracts from any shard); only the sum means anything.

/** HistoryCountKey names whose entries of which table a delta counts. */
export interface HistoryCountKey {
  accountId: string;
  tableId: number;
}

// Every record write runs it: one constant text per engine (bound values only), so neither a query builder nor
// the statement cache's key does any work per write.
const UPSERT_TAIL = `ON CONFLICT (account_id, table_id, shard)
  DO UPDATE SET change_count = change_history_counts.change_count + excluded.change_count`;
const ADD_TO_HISTORY_COUNT = {
  numbered: `INSERT INTO change_history_counts (account_id, table_id, shard, change_count) VALUES ($1, $2, $3, $4) ${UPSERT_TAIL}`,
  positional: `INSERT INTO change_history_counts (account_id, table_id, shard, change_count) VALUES (?, ?, ?, ?) ${UPSERT_TAIL}`,
};

/**
 * addToHistoryCount adds `delta` entries to one shard of an account's count for a table, in the scope of the
 * change (in a group of writes, to its sums: db/group-counts.ts); `deferred` where nothing reads the count before
 * the change commits (Db.defer).
 */
export async function addToHistoryCount(
  scope: Db,
  { accountId, tableId }: HistoryCountKey,
  delta: number,
  { deferred = false }: { deferred?: boolean } = {},
): Promise<void> {
  if (delta === 0) return;
  if (scope.counts) {
    scope.counts.addHistory(accountId, tableId, delta);
    return;
  }
  const { userTables } = scope.dialect;
  const shard = Math.floor(Math.random() * userTables.rowCountShards);
  const text = userTables.numberedParameters ? ADD_TO_HISTORY_COUNT.numbered : ADD_TO_HISTORY_COUNT.positional;
  const query = textQuery(text, [accountId, tableId, shard, delta]);
  await (deferred ? scope.defer(query) : scope.run(query));
}

/** readHistoryCount is how many entries an account has in history, of one table when tableId is given, of its SQL functions with `functions`. */
export async function readHistoryCount(
  db: Executor,
  {
    accountId,
    tableId,
    functions,
  }: { accountId: string; tableId?: number | undefined; functions?: boolean | undefined },
): Promise<number> {
  let query = db
    .selectFrom('change_history_counts')
    .select((eb) => eb.fn.sum<number | string | null>('change_count').as('n'))
    .where('account_id', '=', accountId);
  if (tableId !== undefined) query = query.where('table_id', '=', tableId);
  // A SQL function's entries are counted under the negative of its id.
  if (functions) query = query.where('table_id', '<', 0);
  const row = await query.executeTakeFirst();
  return Number(row?.n ?? 0);
}
