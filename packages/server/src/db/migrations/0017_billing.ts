import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { SqlDialect } from '../dialect/dialect.js';

/**
 * billingMigration adds metering and billing (features/billing): API calls per account and day (`user_usage`,
 * the period's total is the sum of its days, so a new period starts at zero by itself), the ids of the metering
 * batches already added (a retried batch is not counted twice), invoices, the Stripe events already handled, the
 * notifications usage warnings leave, and on accounts the subscription's period start and the time of the newest
 * Stripe event applied to it (an older one arriving late changes nothing).
 */
export function billingMigration(dialect: SqlDialect): Migration {
  return {
    // biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists.
    async up(db: Kysely<any>) {
      await db.schema.alterTable('accounts').addColumn('subscription_period_start', 'text').execute();
      await db.schema.alterTable('accounts').addColumn('subscription_event_at', 'bigint').execute();
      await db.schema.createIndex('accounts_stripe_customer_idx').on('accounts').column('stripe_customer_id').execute();

      await db.schema
        .createTable('user_usage')
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('day', 'text', (c) => c.notNull())
        .addColumn('api_calls', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('last_updated', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('user_usage_pk', ['account_id', 'day'])
        .execute();

      await db.schema
        .createTable('usage_batches')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('invoices')
        .addColumn('id', dialect.autoIncrementType, (c) => dialect.autoIncrementId(c))
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('stripe_invoice_id', 'text', (c) => c.notNull().unique())
        .addColumn('amount', 'bigint', (c) => c.notNull())
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('pdf_url', 'text')
        .addColumn('invoice_date', 'text', (c) => c.notNull())
        .addColumn('event_at', 'bigint', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('invoices_account_idx')
        .on('invoices')
        .columns(['account_id', 'invoice_date'])
        .execute();

      await db.schema
        .createTable('stripe_events')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('processed_at', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('notifications')
        .addColumn('id', dialect.autoIncrementType, (c) => dialect.autoIncrementId(c))
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('dedupe_key', 'text', (c) => c.notNull())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('message', 'text', (c) => c.notNull())
        .addColumn('read_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('notifications_account_key')
        .on('notifications')
        .columns(['account_id', 'dedupe_key'])
        .unique()
        .execute();
    },
  };
}
