import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * changeHistoryIndexesMigration gives history the index its reads need at a million entries: (account_id,
 * table_id, id) replaces (table_id, id), because every read of a table's history names its account too, and with
 * both in the index a page of one table is a range read even where the planner would rather walk the account's
 * index (SQLite chose (account_id, id) and stepped over every newer change of the other tables). Retention needs
 * none: it walks the primary key from the oldest change.
 */
export function changeHistoryIndexesMigration(): Migration {
  return {
    // biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists.
    async up(db: Kysely<any>) {
      await db.schema
        .createIndex('change_history_account_table_idx')
        .on('change_history')
        .columns(['account_id', 'table_id', 'id'])
        .execute();
      await db.schema.dropIndex('change_history_table_idx').execute();
    },
  };
}
