import { sql } from 'kysely';
import type { SqlDialect, StoredValue } from '../../db/dialect/dialect.js';
import { columnRef, type Executor, tableRef } from '../../db/user-tables.js';

// The row-level SQL of schema changes: counting the rows a precondition refuses, and reading and writing one
// column's values while it is converted to another type. DDL is in db/user-tables.ts.

const WRITE_CHUNK = 500;

async function count(db: Executor, query: ReturnType<typeof sql<{ n: number | string }>>): Promise<number> {
  const { rows } = await query.execute(db);
  return Number(rows[0]?.n ?? 0);
}

/** countAllRows counts a user table's rows. */
export function countAllRows(db: Executor, tableId: number): Promise<number> {
  return count(db, sql`SELECT count(*) AS n FROM ${tableRef(tableId)}`);
}

/** countNullRows counts the rows where a column is NULL. */
export function countNullRows(db: Executor, tableId: number, column: string): Promise<number> {
  return count(db, sql`SELECT count(*) AS n FROM ${tableRef(tableId)} WHERE ${columnRef(column)} IS NULL`);
}

/** countDuplicateRows counts the rows whose (non-NULL) value of a column another row shares. */
export function countDuplicateRows(db: Executor, tableId: number, column: string): Promise<number> {
  const c = columnRef(column);
  return count(
    db,
    sql`SELECT count(*) AS n FROM ${tableRef(tableId)} WHERE ${c} IS NOT NULL AND ${c} IN
      (SELECT ${c} FROM ${tableRef(tableId)} WHERE ${c} IS NOT NULL GROUP BY ${c} HAVING count(*) > 1)`,
  );
}

/** selectColumnValues reads the non-NULL values of a column with their row ids, by id. */
export async function selectColumnValues(
  db: Executor,
  tableId: number,
  column: string,
): Promise<Array<{ id: number; value: unknown }>> {
  const { rows } = await sql<{ id: number | string; value: unknown }>`SELECT "id" AS id, ${columnRef(column)} AS value
    FROM ${tableRef(tableId)} WHERE ${columnRef(column)} IS NOT NULL ORDER BY "id"`.execute(db);
  return rows.map((row) => ({ id: Number(row.id), value: row.value }));
}

/** writeColumnValues sets one column of many rows, each to its own value cast to the column's SQL type. */
export async function writeColumnValues(
  db: Executor,
  dialect: SqlDialect,
  target: { tableId: number; column: string; sqlType: string },
  values: Array<{ id: number; value: StoredValue }>,
): Promise<void> {
  for (let i = 0; i < values.length; i += WRITE_CHUNK) {
    const chunk = values.slice(i, i + WRITE_CHUNK);
    const cases = chunk.map(
      ({ id, value }) => sql`WHEN ${id} THEN ${dialect.userTables.castSql(value, target.sqlType)}`,
    );
    await sql`UPDATE ${tableRef(target.tableId)} SET ${columnRef(target.column)} = CASE "id" ${sql.join(cases, sql` `)} END
      WHERE "id" IN (${sql.join(chunk.map((v) => v.id))})`.execute(db);
  }
}

/** fillColumn sets one column of every row to one value (a new column's default), cast to its SQL type. */
export async function fillColumn(
  db: Executor,
  dialect: SqlDialect,
  target: { tableId: number; column: string; sqlType: string },
  value: StoredValue,
): Promise<void> {
  await sql`UPDATE ${tableRef(target.tableId)} SET ${columnRef(target.column)} = ${dialect.userTables.castSql(value, target.sqlType)}`.execute(
    db,
  );
}
