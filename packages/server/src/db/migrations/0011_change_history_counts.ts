import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * changeHistoryCountsMigration creates the kept count of every table's history entries, per account and table
 * in shards (db/history-counts.ts), and counts the entries that exist already, once, here (into shard 0).
 */
export function changeHistoryCountsMigration(): Migration {
  return {
    // biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists.
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('change_history_counts')
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('table_id', 'bigint', (c) => c.notNull())
        .addColumn('shard', 'integer', (c) => c.notNull())
        .addColumn('change_count', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('change_history_counts_pkey', ['account_id', 'table_id', 'shard'])
        .execute();
      await sql`INSERT INTO change_history_counts (account_id, table_id, shard, change_count)
        SELECT account_id, table_id, 0, count(*) FROM change_history GROUP BY account_id, table_id`.execute(db);
    },
  };
}
