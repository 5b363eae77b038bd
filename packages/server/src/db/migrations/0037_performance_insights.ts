import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { SqlDialect } from '../dialect/dialect.js';

/**
 * performanceInsightsMigration creates what the insight job found about an account's tables
 * (features/insights). `fingerprint` names one finding (its kind and table), so the job updates a finding
 * instead of adding it again, and one marked implemented stays so.
 */
export function performanceInsightsMigration(dialect: SqlDialect): Migration {
  return {
    // biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists.
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('performance_insights')
        .addColumn('id', dialect.autoIncrementType, (c) => dialect.autoIncrementId(c))
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('table_id', 'integer', (c) => c.references('user_tables.id').onDelete('cascade'))
        .addColumn('fingerprint', 'text', (c) => c.notNull())
        .addColumn('insight_type', 'text', (c) => c.notNull())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('impact', 'text', (c) => c.notNull())
        .addColumn('suggested_action', 'text', (c) => c.notNull())
        .addColumn('details', 'text')
        .addColumn('implemented', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('implemented_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('performance_insights_account_fingerprint_key')
        .on('performance_insights')
        .columns(['account_id', 'fingerprint'])
        .unique()
        .execute();
    },
  };
}
