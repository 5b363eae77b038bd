import { createHash } from 'node:crypto';
import type { TableSchema } from '@basalt/shared';
import { type Kysely, sql } from 'kysely';
import type { DialectName } from './dialect/dialect.js';
import { assertIdentifier, quoteIdentifier, userTableName } from './identifiers.js';

// The index a column may ask for (`indexed: true` in its definition), for filters and orders on it: one plain
// B-tree index per column, `<table>_<column>_idx`, the same on both engines. A unique column has its unique
// index already, so it gets none. A SQLite rebuild (making a column required) and a retype drop a table's
// indexes: a schema change ends by syncing them (features/tables/schema-change.ts), as references do.

const MAX_NAME = 63;

// Only for DDL, which neither engine binds; any connection or transaction will do.
// biome-ignore lint/suspicious/noExplicitAny: the statements here name no system table.
type Executor = Kysely<any>;

/** columnIndexName names a column's own index, `<table>_<column>_idx` (hashed past 63 bytes). */
export function columnIndexName(tableId: number, column: string): string {
  assertIdentifier(column, 'column');
  const full = `${userTableName(tableId)}_${column}_idx`;
  if (full.length <= MAX_NAME) return full;
  const hash = createHash('sha256').update(full).digest('hex').slice(0, 10);
  return `${full.slice(0, MAX_NAME - hash.length - 5)}_${hash}_idx`;
}

/** createColumnIndex creates a column's own index unless it has it. */
export async function createColumnIndex(db: Executor, tableId: number, column: string): Promise<void> {
  const index = quoteIdentifier(columnIndexName(tableId, column));
  await sql
    .raw(
      `CREATE INDEX IF NOT EXISTS ${index} ON ${quoteIdentifier(userTableName(tableId))} (${quoteIdentifier(column)})`,
    )
    .execute(db);
}

/**
 * analyzeColumn refreshes the planner's statistics of a column that just got its index. PostgreSQL's CREATE INDEX
 * gathers none: on a table autovacuum has not analyzed yet (loaded a moment ago, or autovacuum off) the planner
 * would keep reading a rare value's rows in id order, past the new index. SQLite's planner takes an index on an
 * equality without statistics: nothing to do there.
 */
export async function analyzeColumn(db: Executor, dialect: DialectName, tableId: number, column: string) {
  if (dialect !== 'postgres') return;
  await sql.raw(`ANALYZE ${quoteIdentifier(userTableName(tableId))} (${quoteIdentifier(column)})`).execute(db);
}

/** dropColumnIndex drops a column's own index if it has one (SQLite cannot drop or rename an indexed column). */
export async function dropColumnIndex(db: Executor, tableId: number, column: string): Promise<void> {
  await sql.raw(`DROP INDEX IF EXISTS ${quoteIdentifier(columnIndexName(tableId, column))}`).execute(db);
}

/** syncColumnIndexes gives every indexed column of a schema its index (a unique one needs none: it is dropped). */
export async function syncColumnIndexes(db: Executor, tableId: number, schema: TableSchema): Promise<void> {
  for (const [column, definition] of Object.entries(schema)) {
    if (!definition.indexed) continue;
    if (definition.unique) await dropColumnIndex(db, tableId, column);
    else await createColumnIndex(db, tableId, column);
  }
}
