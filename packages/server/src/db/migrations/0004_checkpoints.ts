import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { SqlDialect } from '../dialect/dialect.js';

/**
 * checkpointsMigration creates named checkpoints of a table's history and marks
 * the changes a revert wrote. A checkpoint names the table's latest change when it was made (`change_id`;
 * NULL when the table had none left). Like history, it has no foreign key to `user_tables`: a checkpoint
 * outlives its table, and restoring it brings the table back. `change_history.revert_of` is the change a
 * revert undid (NULL for every other change).
 */
export function checkpointsMigration(dialect: SqlDialect): Migration {
  return {
    // biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists.
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('checkpoints')
        .addColumn('id', dialect.autoIncrementType, (c) => dialect.autoIncrementId(c))
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('table_id', 'bigint', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('description', 'text')
        .addColumn('change_id', 'bigint')
        .addColumn('created_by', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('checkpoints_account_table_idx')
        .on('checkpoints')
        .columns(['account_id', 'table_id', 'id'])
        .execute();
      await db.schema.alterTable('change_history').addColumn('revert_of', 'bigint').execute();
      // Partial: the record writes' history rows (revert_of NULL) never touch it.
      await db.schema
        .createIndex('change_history_revert_of_idx')
        .on('change_history')
        .column('revert_of')
        .where(sql.ref('revert_of'), 'is not', null)
        .execute();
    },
  };
}
