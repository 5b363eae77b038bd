import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import { quoteIdentifier, userTableName } from '../identifiers.js';

/**
 * tableRowCountsMigration creates the exact row count of every user table (db/row-counts.ts) and counts the
 * tables that exist already, once, here. `version` grows with every write to the table and is never reused (a
 * dropped table keeps its row at 0 rows), so that a count cached at one version is exact as long as the version
 * has not moved.
 */
export function tableRowCountsMigration(): Migration {
  return {
    // biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists.
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('table_row_counts')
        .addColumn('table_id', 'integer', (c) => c.primaryKey())
        .addColumn('row_count', 'bigint', (c) => c.notNull())
        .addColumn('version', 'bigint', (c) => c.notNull())
        .execute();
      const tables = await db.selectFrom('user_tables').select('id').execute();
      for (const { id } of tables) {
        const table = sql.raw(quoteIdentifier(userTableName(Number(id))));
        await sql`INSERT INTO table_row_counts (table_id, row_count, version)
          SELECT ${Number(id)}, count(*), 1 FROM ${table}`.execute(db);
      }
    },
  };
}
