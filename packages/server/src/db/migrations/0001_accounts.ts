import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { SqlDialect } from '../dialect/dialect.js';

/** accountsMigration creates accounts, sessions, tokens, signing keys, rate limits and activity. */
export function accountsMigration(dialect: SqlDialect): Migration {
  return {
    // biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists.
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('accounts')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('email', 'text', (c) => c.notNull().unique())
        .addColumn('username', 'text')
        .addColumn('username_key', 'text', (c) => c.unique())
        .addColumn('password_hash', 'text')
        .addColumn('is_admin', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('email_confirmed_at', 'text')
        .addColumn('confirmation_sent_at', 'text')
        .addColumn('recovery_sent_at', 'text')
        .addColumn('new_email', 'text')
        .addColumn('email_change_sent_at', 'text')
        .addColumn('last_sign_in_at', 'text')
        .addColumn('banned_until', 'text')
        .addColumn('user_metadata', 'text', (c) => c.notNull().defaultTo('{}'))
        .addColumn('app_metadata', 'text', (c) => c.notNull().defaultTo('{}'))
        .addColumn('marketing_emails', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('stripe_customer_id', 'text')
        .addColumn('stripe_subscription_id', 'text')
        .addColumn('subscription_status', 'text')
        .addColumn('subscription_plan', 'text')
        .addColumn('subscription_renewal_date', 'text')
        .addColumn('cancel_at_period_end', 'integer')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      // The admin user list is newest first.
      await db.schema.createIndex('accounts_created_idx').on('accounts').column('created_at').execute();

      await db.schema
        .createTable('auth_sessions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('amr', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('cookie_token_hash', 'text', (c) => c.unique())
        .addColumn('user_agent', 'text')
        .addColumn('ip', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('auth_sessions_account_idx').on('auth_sessions').column('account_id').execute();

      await db.schema
        .createTable('refresh_tokens')
        .addColumn('id', dialect.autoIncrementType, (c) => dialect.autoIncrementId(c))
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('session_id', 'text', (c) => c.notNull().references('auth_sessions.id').onDelete('cascade'))
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('parent_id', 'integer')
        .addColumn('revoked', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('revoked_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('refresh_tokens_session_idx').on('refresh_tokens').column('session_id').execute();
      // A reused token inside the reuse window is answered with its successor, found by parent.
      await db.schema.createIndex('refresh_tokens_parent_idx').on('refresh_tokens').column('parent_id').execute();

      await db.schema
        .createTable('one_time_tokens')
        .addColumn('id', dialect.autoIncrementType, (c) => dialect.autoIncrementId(c))
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('otp_hash', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('one_time_tokens_account_idx').on('one_time_tokens').column('account_id').execute();
      // /verify with {email, token} looks the 6-digit code up by address and kind.
      await db.schema
        .createIndex('one_time_tokens_email_idx')
        .on('one_time_tokens')
        .columns(['email', 'kind'])
        .execute();

      await db.schema
        .createTable('signing_keys')
        .addColumn('kid', 'text', (c) => c.primaryKey())
        .addColumn('alg', 'text', (c) => c.notNull())
        .addColumn('private_jwk', 'text', (c) => c.notNull())
        .addColumn('public_jwk', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('retired_at', 'text')
        .execute();

      await db.schema
        .createTable('instance_settings')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('rate_limits')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('window_start', 'bigint', (c) => c.notNull())
        .addColumn('count', 'integer', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('rate_limits_window_idx').on('rate_limits').column('window_start').execute();

      await db.schema
        .createTable('activity_logs')
        .addColumn('id', dialect.autoIncrementType, (c) => dialect.autoIncrementId(c))
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('resource', 'text', (c) => c.notNull())
        .addColumn('details', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('activity_logs_account_idx')
        .on('activity_logs')
        .columns(['account_id', 'id'])
        .execute();
    },
  };
}
