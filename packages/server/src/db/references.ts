import { createHash } from 'node:crypto';
import type { TableSchema } from '@basalt/shared';
import { sql } from 'kysely';
import type { SqlDialect } from './dialect/dialect.js';
import { quoteIdentifier, userTableName } from './identifiers.js';
import { type Executor, quotedColumn, quotedTable } from './user-tables.js';

// The SQL of reference columns (a number column pointing at another table's id): their indexes, the rows that
// point at given ids, the ids a write points at that exist, and the rows that point nowhere (before a reference
// is added). The records service keeps references true on every write path (features/records/record-references.ts);
// on PostgreSQL the ids a write points at are locked FOR KEY SHARE, as a foreign key check locks them, so that a
// concurrent delete of the row pointed at waits for the write (and then finds it); SQLite runs one write at a time.

const MAX_NAME = 63;

/** referenceIndexName names the index of a reference column, `<table>_<column>_ref` (hashed past 63 bytes). */
export function referenceIndexName(tableId: number, column: string): string {
  const full = `${userTableName(tableId)}_${column}_ref`;
  if (full.length <= MAX_NAME) return full;
  const hash = createHash('sha256').update(full).digest('hex').slice(0, 10);
  return `${full.slice(0, MAX_NAME - hash.length - 5)}_${hash}_ref`;
}

/** syncReferenceIndexes makes sure every reference column of a table has its index (a rebuild drops them). */
export async function syncReferenceIndexes(db: Executor, tableId: number, schema: TableSchema): Promise<void> {
  for (const [column, definition] of Object.entries(schema)) {
    if (!definition.references) continue;
    const index = quoteIdentifier(referenceIndexName(tableId, column));
    await sql
      .raw(`CREATE INDEX IF NOT EXISTS ${index} ON ${quotedTable(tableId)} (${quotedColumn(column)})`)
      .execute(db);
  }
}

/** dropReferenceIndex drops a column's reference index if it has one (SQLite cannot drop an indexed column). */
export async function dropReferenceIndex(db: Executor, tableId: number, column: string): Promise<void> {
  await sql.raw(`DROP INDEX IF EXISTS ${quoteIdentifier(referenceIndexName(tableId, column))}`).execute(db);
}

/** existingIds are those of `ids` that the table has, locked against a concurrent delete on PostgreSQL. */
export async function existingIds(
  db: Executor,
  dialect: SqlDialect,
  tableId: number,
  ids: readonly number[],
): Promise<Set<number>> {
  const found = new Set<number>();
  if (ids.length === 0) return found;
  const lock = dialect.userTables.keyShareLockSql;
  const { rows } = await sql<{
    id: number | string;
  }>`SELECT id FROM ${sql.raw(quotedTable(tableId))} WHERE id IN (${sql.join(
    ids.map((id) => sql`${id}`),
  )})${sql.raw(lock)}`.execute(db);
  for (const row of rows) found.add(Number(row.id));
  return found;
}

/** referringRows are the ids of a table's rows whose `column` holds one of `ids`, with the id each points at. */
export async function referringRows(
  db: Executor,
  tableId: number,
  column: string,
  ids: readonly number[],
): Promise<Array<{ id: number; pointsAt: number }>> {
  if (ids.length === 0) return [];
  const col = quotedColumn(column);
  const { rows } = await sql<{
    id: number | string;
    v: number | string;
  }>`SELECT id, ${sql.raw(col)} AS v FROM ${sql.raw(
    quotedTable(tableId),
  )} WHERE ${sql.raw(col)} IN (${sql.join(ids.map((id) => sql`${id}`))}) ORDER BY id`.execute(db);
  return rows.map((row) => ({ id: Number(row.id), pointsAt: Number(row.v) }));
}

/** danglingValues are up to `limit` values of `column` that no row of the referenced table has as its id. */
export async function danglingValues(
  db: Executor,
  tableId: number,
  column: string,
  referencedTableId: number,
  limit = 5,
): Promise<number[]> {
  const col = quotedColumn(column);
  const { rows } = await sql<{ v: number | string }>`SELECT DISTINCT ${sql.raw(col)} AS v FROM ${sql.raw(
    quotedTable(tableId),
  )} WHERE ${sql.raw(col)} IS NOT NULL AND NOT EXISTS (SELECT 1 FROM ${sql.raw(quotedTable(referencedTableId))} AS r WHERE r.id = ${sql.raw(
    `${quotedTable(tableId)}.${col}`,
  )}) ORDER BY 1 LIMIT ${limit}`.execute(db);
  return rows.map((row) => Number(row.v));
}
