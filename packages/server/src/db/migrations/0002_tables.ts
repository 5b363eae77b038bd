import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { SqlDialect } from '../dialect/dialect.js';

/**
 * tablesMigration creates the table definitions and the change history. A definition's rows live in a real
 * table `t_<id>` (db/user-tables.ts). History rows have no foreign key to `user_tables` on purpose: they
 * outlive a dropped table, whose SCHEMA_DELETE entry holds its definition and rows.
 */
export function tablesMigration(dialect: SqlDialect): Migration {
  return {
    // biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists.
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('user_tables')
        .addColumn('id', dialect.autoIncrementType, (c) => dialect.autoIncrementId(c))
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('name_key', 'text', (c) => c.notNull())
        .addColumn('description', 'text')
        .addColumn('schema', 'text', (c) => c.notNull())
        .addColumn('schema_version', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('user_tables_account_name_key')
        .on('user_tables')
        .columns(['account_id', 'name_key'])
        .unique()
        .execute();

      await db.schema
        .createTable('change_history')
        .addColumn('id', dialect.autoIncrementType, (c) => dialect.autoIncrementId(c))
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('table_id', 'bigint', (c) => c.notNull())
        .addColumn('table_name', 'text', (c) => c.notNull())
        .addColumn('record_id', 'bigint')
        .addColumn('change_type', 'text', (c) => c.notNull())
        .addColumn('previous_state', 'text')
        .addColumn('new_state', 'text')
        .addColumn('actor_id', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('change_history_table_idx')
        .on('change_history')
        .columns(['table_id', 'id'])
        .execute();
      await db.schema
        .createIndex('change_history_account_idx')
        .on('change_history')
        .columns(['account_id', 'id'])
        .execute();
    },
  };
}
