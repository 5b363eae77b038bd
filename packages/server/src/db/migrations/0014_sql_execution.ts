import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { SqlDialect } from '../dialect/dialect.js';

/**
 * sqlExecutionMigration creates what SQL Execution keeps per project: the database
 * connections SQL runs against, the uploaded files (`file_storage`; their bytes are in the file storage, keyed by
 * `file_path`) and the query history, one row per run, each row going with its project. A connection's secret parts (the
 * whole connection string or details, password included) are only in `secret_sealed`, AES-256-GCM under the
 * master key; `connection_string` and `connection_details` hold their masked forms for listings.
 */
export function sqlExecutionMigration(dialect: SqlDialect): Migration {
  return {
    // biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists.
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('database_connections')
        .addColumn('id', dialect.autoIncrementType, (c) => dialect.autoIncrementId(c))
        .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('provider', 'text', (c) => c.notNull())
        .addColumn('engine', 'text', (c) => c.notNull())
        .addColumn('connection_string', 'text')
        .addColumn('connection_details', 'text')
        .addColumn('secret_sealed', 'text', (c) => c.notNull())
        .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('last_connected', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('database_connections_project_idx')
        .on('database_connections')
        .columns(['project_id', 'id'])
        .execute();

      await db.schema
        .createTable('file_storage')
        .addColumn('id', dialect.autoIncrementType, (c) => dialect.autoIncrementId(c))
        .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('file_name', 'text', (c) => c.notNull())
        .addColumn('file_type', 'text', (c) => c.notNull())
        .addColumn('file_path', 'text', (c) => c.notNull().unique())
        .addColumn('file_size', 'bigint', (c) => c.notNull())
        .addColumn('public_url', 'text')
        .addColumn('metadata', 'text', (c) => c.notNull().defaultTo('{}'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('file_storage_project_idx')
        .on('file_storage')
        .columns(['project_id', 'id'])
        .execute();

      await db.schema
        .createTable('query_history')
        .addColumn('id', dialect.autoIncrementType, (c) => dialect.autoIncrementId(c))
        .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('connection_id', 'bigint')
        .addColumn('file_id', 'bigint')
        .addColumn('query', 'text', (c) => c.notNull())
        .addColumn('execution_time', 'real', (c) => c.notNull())
        .addColumn('rows_affected', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('successful', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('error_message', 'text')
        .addColumn('dry_run', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('executed_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('query_history_project_idx')
        .on('query_history')
        .columns(['project_id', 'id'])
        .execute();
    },
  };
}
