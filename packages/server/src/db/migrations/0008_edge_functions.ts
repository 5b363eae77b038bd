import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { SqlDialect } from '../dialect/dialect.js';

/**
 * edgeFunctionsMigration creates the edge functions (features/functions): the functions themselves (a name unique
 * per account, a route unique on the instance: it is a URL), every deployed version with the bundle Deno runs,
 * each invocation (the per-function log, kept FUNCTION_LOG_RETENTION_DAYS) and hourly counters per function that
 * billing reads. Invocations and counters are written in batches after the fact, so they carry no foreign keys: a
 * batch must not fail because its function or account was deleted meanwhile (retention removes such rows).
 */
export function edgeFunctionsMigration(dialect: SqlDialect): Migration {
  return {
    // biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists.
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('edge_functions')
        .addColumn('id', dialect.autoIncrementType, (c) => dialect.autoIncrementId(c))
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('name_key', 'text', (c) => c.notNull())
        .addColumn('code', 'text', (c) => c.notNull())
        .addColumn('route', 'text', (c) => c.notNull())
        .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('verify_jwt', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('deployed_version', 'integer')
        .addColumn('last_deployed', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('edge_functions_account_name_key')
        .on('edge_functions')
        .columns(['account_id', 'name_key'])
        .unique()
        .execute();
      await db.schema.createIndex('edge_functions_route_key').on('edge_functions').column('route').unique().execute();
      await db.schema.createIndex('edge_functions_name_idx').on('edge_functions').column('name_key').execute();

      await db.schema
        .createTable('edge_function_versions')
        .addColumn('id', dialect.autoIncrementType, (c) => dialect.autoIncrementId(c))
        .addColumn('function_id', 'integer', (c) => c.notNull().references('edge_functions.id').onDelete('cascade'))
        .addColumn('version', 'integer', (c) => c.notNull())
        .addColumn('code', 'text', (c) => c.notNull())
        .addColumn('bundle', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('edge_function_versions_key')
        .on('edge_function_versions')
        .columns(['function_id', 'version'])
        .unique()
        .execute();

      await db.schema
        .createTable('function_invocations')
        .addColumn('id', dialect.autoIncrementType, (c) => dialect.autoIncrementId(c))
        .addColumn('account_id', 'text', (c) => c.notNull())
        .addColumn('function_id', 'integer', (c) => c.notNull())
        .addColumn('method', 'text', (c) => c.notNull())
        .addColumn('status', 'integer', (c) => c.notNull())
        .addColumn('duration_ms', 'real', (c) => c.notNull())
        .addColumn('cpu_ms', 'real', (c) => c.notNull())
        .addColumn('memory_mb', 'real', (c) => c.notNull())
        .addColumn('error', 'text')
        .addColumn('logs', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('function_invocations_function_idx')
        .on('function_invocations')
        .columns(['function_id', 'created_at', 'id'])
        .execute();
      await db.schema
        .createIndex('function_invocations_created_idx')
        .on('function_invocations')
        .column('created_at')
        .execute();

      await db.schema
        .createTable('function_usage')
        .addColumn('function_id', 'integer', (c) => c.notNull())
        .addColumn('hour', 'text', (c) => c.notNull())
        .addColumn('account_id', 'text', (c) => c.notNull())
        .addColumn('invocations', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('errors', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('cpu_ms', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('duration_ms', 'bigint', (c) => c.notNull().defaultTo(0))
        .addPrimaryKeyConstraint('function_usage_pk', ['function_id', 'hour'])
        .execute();
      await db.schema
        .createIndex('function_usage_account_idx')
        .on('function_usage')
        .columns(['account_id', 'hour'])
        .execute();
    },
  };
}
