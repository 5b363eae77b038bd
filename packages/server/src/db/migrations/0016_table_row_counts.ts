import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { SqlDialect } from '../dialect/dialect.js';
import { quoteIdentifier, userTableName } from '../identifiers.js';

/**
 * tableRowCountsMigration creates the exact row count of every user table, in `rowCountShards` rows per table
 * (db/row-counts.ts), and counts the tables that exist already, once, here (into shard 0).
 */
export function tableRowCountsMigration(dialect: SqlDialect): Migration {
  return {
    // biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists.
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('table_row_counts')
        .addColumn('table_id', 'integer', (c) => c.notNull())
        .addColumn('shard', 'integer', (c) => c.notNull())
        .addColumn('row_count', 'bigint', (c) => c.notNull())
        .addColumn('version', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('table_row_counts_pkey', ['table_id', 'shard'])
        .execute();
      const tables = await db.selectFrom('user_tables').select('id').execute();
      for (const { id } of tables) {
        const table = sql.raw(quoteIdentifier(userTableName(Number(id))));
        await sql`INSERT INTO table_row_counts (table_id, shard, row_count, version)
          SELECT ${Number(id)}, 0, count(*), 1 FROM ${table}`.execute(db);
        for (let shard = 1; shard < dialect.userTables.rowCountShards; shard++) {
          await db
            .insertInto('table_row_counts')
            .values({ table_id: Number(id), shard, row_count: 0, version: 1 })
            .execute();
        }
      }
    },
  };
}
