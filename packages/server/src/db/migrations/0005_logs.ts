import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { SqlDialect } from '../dialect/dialect.js';

/**
 * logsMigration creates system_logs, Basalt's own log (features/logs). Every list is newest first, ordered by
 * (created_at, id), so each index ends with those two columns: the plain one for an administrator's unfiltered
 * pages and the age retention, one per level (errors are rare, a level filter must not scan everything) and one
 * per account (an account sees only its own entries). The service filter and the search use the newest-first
 * index and filter as they go. account_id has no foreign key: entries outlive a deleted account until retention.
 */
export function logsMigration(dialect: SqlDialect): Migration {
  return {
    // biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists.
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('system_logs')
        .addColumn('id', dialect.autoIncrementType, (c) => dialect.autoIncrementId(c))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('level', 'text', (c) => c.notNull())
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('message', 'text', (c) => c.notNull())
        .addColumn('path', 'text')
        .addColumn('account_id', 'text')
        .addColumn('context', 'text', (c) => c.notNull().defaultTo('{}'))
        .execute();
      await db.schema.createIndex('system_logs_created_idx').on('system_logs').columns(['created_at', 'id']).execute();
      await db.schema
        .createIndex('system_logs_level_idx')
        .on('system_logs')
        .columns(['level', 'created_at', 'id'])
        .execute();
      await db.schema
        .createIndex('system_logs_account_idx')
        .on('system_logs')
        .columns(['account_id', 'created_at', 'id'])
        .execute();
    },
  };
}
