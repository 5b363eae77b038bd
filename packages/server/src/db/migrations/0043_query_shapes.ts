import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * queryShapesMigration adds what the record APIs' reads filtered, ordered and counted (features/insights): one
 * row per table, kind (`filter`, `order`, `count`), column ('' for a count) and day, added to by every node's
 * batches. No foreign keys: a batch may name a table deleted since; the insights job drops such rows.
 */
export function queryShapesMigration(): Migration {
  return {
    // biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists.
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('query_shapes')
        .addColumn('table_id', 'integer', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('column_name', 'text', (c) => c.notNull())
        .addColumn('day', 'text', (c) => c.notNull())
        .addColumn('account_id', 'text', (c) => c.notNull())
        .addColumn('calls', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('total_ms', 'double precision', (c) => c.notNull().defaultTo(0))
        .addPrimaryKeyConstraint('query_shapes_pk', ['table_id', 'kind', 'column_name', 'day'])
        .execute();
    },
  };
}
