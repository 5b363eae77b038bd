import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { SqlDialect } from '../dialect/dialect.js';

/**
 * sqlFunctionsMigration adds the SQL functions an account defines for `/rest/v1/rpc/<name>` (features/sql-functions):
 * a name unique per account, its typed parameters and return shape (JSON text), one SELECT statement as written, and
 * who of the app's callers may call it.
 */
export function sqlFunctionsMigration(dialect: SqlDialect): Migration {
  return {
    // biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists.
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('sql_functions')
        .addColumn('id', dialect.autoIncrementType, (c) => dialect.autoIncrementId(c))
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('description', 'text')
        .addColumn('params', 'text', (c) => c.notNull())
        .addColumn('returns', 'text', (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('call_rule', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('sql_functions_account_name')
        .on('sql_functions')
        .columns(['account_id', 'name'])
        .unique()
        .execute();
    },
  };
}
