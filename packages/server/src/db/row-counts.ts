import { type CompiledQuery, type Kysely, sql } from 'kysely';
import type { Db } from './database.js';
import type { ReadRows, SqlDialect } from './dialect/dialect.js';
import { quoteIdentifier, userTableName } from './identifiers.js';
import type { SystemDatabase } from './schema.js';

/** Executor is a connection or an open transaction (a Transaction is a Kysely). */
type Executor = Kysely<SystemDatabase>;

import { SqlText, textQuery } from './sql-text.js';

// Each user table's exact row count, kept in `table_row_counts` in the same transaction as every write to the
// table (the records service's runWrite adds what it inserted and deleted; creating and dropping the real table
// resets it), so a count without a filter is one short read on every node.
//
// The count is split over `dialect.userTables.rowCountShards` rows per table (1 on SQLite, whose one writer
// never waits; 32 on PostgreSQL): a write adds its delta to one shard picked at random, and holds that row's lock
// until it commits, so concurrent writes to one table rarely wait for each other. The table's count is the sum.
//
// Each shard has a `version` that grows by one with every write to it (and with every schema change, drop and
// re-creation of the table) and never goes back. A shard's writes commit in version order (its row lock), so the
// versions of all shards, read in one statement, name exactly the set of committed writes: a count of a filter
// taken with them is still exact while they read the same (features/records/record-counts.ts).

/** RowCountState is a table's row count and shard versions as committed (or as the open transaction sees them). */
export interface RowCountState {
  rowCount: number;
  /** The shards' versions in shard order. */
  versions: number[];
}

/** RowCountWrite says which shard a write counted in and the version it moved that shard to. */
export interface RowCountWrite {
  shard: number;
  version: number;
}

/** resetRowCount sets a (new or re-created) table's count to 0 rows and moves every shard's version on. */
export async function resetRowCount(db: Executor, dialect: SqlDialect, tableId: number): Promise<void> {
  const shards = Array.from({ length: dialect.userTables.rowCountShards }, (_, shard) => shard);
  await db
    .insertInto('table_row_counts')
    .values(shards.map((shard) => ({ table_id: tableId, shard, row_count: 0, version: 1 })))
    .onConflict((oc) =>
      oc
        .columns(['table_id', 'shard'])
        .doUpdateSet((eb) => ({ row_count: 0, version: eb('table_row_counts.version', '+', 1) })),
    )
    .execute();
}

/** clearRowCount sets a dropped table's count to 0 rows and moves its versions on (they are never reused). */
export async function clearRowCount(db: Executor, tableId: number): Promise<void> {
  await db
    .updateTable('table_row_counts')
    .set((eb) => ({ row_count: 0, version: eb('version', '+', 1) }))
    .where('table_id', '=', tableId)
    .execute();
}

/** touchRowCount moves every shard's version of a table on, its count unchanged (a schema change rewrote values). */
export async function touchRowCount(db: Executor, tableId: number): Promise<void> {
  await db
    .updateTable('table_row_counts')
    .set((eb) => ({ version: eb('version', '+', 1) }))
    .where('table_id', '=', tableId)
    .execute();
}

// Every record write runs it: one constant text per engine (bound values only), so neither a query builder nor
// the statement cache's key does any work per write.
const ADD_TO_ROW_COUNT = {
  numbered:
    'UPDATE table_row_counts SET row_count = row_count + $1, version = version + 1 WHERE table_id = $2 AND shard = $3 RETURNING version',
  positional:
    'UPDATE table_row_counts SET row_count = row_count + ?, version = version + 1 WHERE table_id = ? AND shard = ? RETURNING version',
};

/**
 * addToRowCount adds a write's inserted minus deleted rows to one shard of a table's count and moves its version
 * on, in the write's scope (in a group of writes, through its sums: db/group-counts.ts); null for a table that has
 * no count rows (none since migration 0016).
 */
export async function addToRowCount(scope: Db, tableId: number, delta: number): Promise<RowCountWrite | null> {
  const next = scope.counts?.nextRowVersion(tableId, delta);
  if (next) return next;
  const { query, shard } = rowCountStatement(scope.dialect, tableId, delta);
  // After the write's deferred history and activity entries, in one statement with them on PostgreSQL.
  const [row] = await scope.runAfterDeferred(query);
  if (!row) return null;
  const version = Number(row.version);
  scope.counts?.countedRow(tableId, shard, version);
  return { shard, version };
}

/** rowCountStatement adds `delta` to one shard of a table's count, picked at random, returning its new version. */
export function rowCountStatement(
  dialect: SqlDialect,
  tableId: number,
  delta: number,
): { query: CompiledQuery<{ version: number | string }>; shard: number } {
  const { userTables } = dialect;
  const shard = Math.floor(Math.random() * userTables.rowCountShards);
  const text = userTables.numberedParameters ? ADD_TO_ROW_COUNT.numbered : ADD_TO_ROW_COUNT.positional;
  return { query: textQuery<{ version: number | string }>(text, [delta, tableId, shard]), shard };
}

/** versionsSql starts a statement that reads a table's shards (shard, row_count, version), in shard order. */
export function versionsSql(dialect: SqlDialect, tableId: number): SqlText {
  return new SqlText(dialect.userTables.numberedParameters)
    .raw('SELECT shard AS s, row_count AS n, version AS v FROM table_row_counts WHERE table_id = ')
    .value(tableId);
}

/** ShardRow is one shard as versionsSql reads it (bigints are text on PostgreSQL). */
export interface ShardRow {
  s: number | string | null;
  n: number | string;
  v: number | string | null;
}

/** stateOf sums shard rows into a table's count and its versions; null without any. */
export function stateOf(rows: ShardRow[]): RowCountState | null {
  const shards = rows.filter((row) => row.s !== null).sort((a, b) => Number(a.s) - Number(b.s));
  if (shards.length === 0) return null;
  let rowCount = 0;
  for (const shard of shards) rowCount += Number(shard.n);
  return { rowCount, versions: shards.map((shard) => Number(shard.v)) };
}

/** readRowCount reads a table's count and versions (one index range read); null without count rows. */
export async function readRowCount(
  read: ReadRows,
  dialect: SqlDialect,
  tableId: number,
): Promise<RowCountState | null> {
  return stateOf(await read(versionsSql(dialect, tableId).compiled<ShardRow>()));
}

/**
 * recountRowCount counts a table's rows again with count(*) and puts the total into shard 0 (the others to 0),
 * moving every version on: for rows written to the real table outside Basalt (a bulk load with psql or
 * sqlite3). Run it in a transaction: the shards are locked first (PostgreSQL), so a write under way either
 * committed before the count saw it or adds its delta after.
 */
export async function recountRowCount(trx: Kysely<SystemDatabase>, dialect: SqlDialect, tableId: number) {
  await resetRowCount(trx, dialect, tableId);
  await sql`SELECT shard FROM table_row_counts WHERE table_id = ${tableId}${sql.raw(dialect.userTables.rowLockSql)}`.execute(
    trx,
  );
  const table = sql.raw(quoteIdentifier(userTableName(tableId)));
  const { rows } = await sql<{ n: number | string }>`SELECT count(*) AS n FROM ${table}`.execute(trx);
  const count = Number(rows[0]?.n ?? 0);
  await trx
    .updateTable('table_row_counts')
    .set({ row_count: count })
    .where('table_id', '=', tableId)
    .where('shard', '=', 0)
    .execute();
  return count;
}
