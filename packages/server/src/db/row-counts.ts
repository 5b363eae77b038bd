import type { Kysely } from 'kysely';
import type { ReadRows, SqlDialect } from './dialect/dialect.js';
import type { SystemDatabase } from './schema.js';
import { SqlText } from './sql-text.js';
import type { Executor } from './user-tables.js';

// Each user table's exact row count, kept in `table_row_counts` in the same transaction as every write to the
// table (the records service's runWrite adds what it inserted and deleted; creating and dropping the real table
// resets it), so a count without a filter is one point read on every node. `version` grows by one with every
// write (and every schema change) and never goes back, also across a drop and a re-creation of the same id:
// a count of a filter that was taken at version v is still exact while the version reads v
// (features/records/record-counts.ts). On PostgreSQL the row is locked from a write's update until its commit,
// so concurrent writes to one table commit their counts one after another.

/** RowCountState is a table's row count and write version as committed (or as the open transaction sees them). */
export interface RowCountState {
  rowCount: number;
  version: number;
}

/** resetRowCount sets a (new or re-created) table's count to 0 rows and moves its version on. */
export async function resetRowCount(db: Executor, tableId: number): Promise<void> {
  await db
    .insertInto('table_row_counts')
    .values({ table_id: tableId, row_count: 0, version: 1 })
    .onConflict((oc) =>
      oc.column('table_id').doUpdateSet((eb) => ({ row_count: 0, version: eb('table_row_counts.version', '+', 1) })),
    )
    .execute();
}

/**
 * addToRowCount adds a write's inserted minus deleted rows to a table's count and moves its version on; returns
 * the new version (null for a table that has no count row, which only a database older than the counts has).
 */
export async function addToRowCount(
  db: Kysely<SystemDatabase>,
  tableId: number,
  delta: number,
): Promise<number | null> {
  const row = await db
    .updateTable('table_row_counts')
    .set((eb) => ({ row_count: eb('row_count', '+', delta), version: eb('version', '+', 1) }))
    .where('table_id', '=', tableId)
    .returning('version')
    .executeTakeFirst();
  return row ? Number(row.version) : null;
}

function statement(dialect: SqlDialect): SqlText {
  return new SqlText(dialect.userTables.numberedParameters);
}

/** readRowCount reads a table's count and version: one point read by primary key; null without a count row. */
export async function readRowCount(
  read: ReadRows,
  dialect: SqlDialect,
  tableId: number,
): Promise<RowCountState | null> {
  const out = statement(dialect)
    .raw('SELECT row_count AS n, version AS v FROM table_row_counts WHERE table_id = ')
    .value(tableId);
  const [row] = await read(out.compiled<{ n: number | string; v: number | string }>());
  return row ? { rowCount: Number(row.n), version: Number(row.v) } : null;
}
