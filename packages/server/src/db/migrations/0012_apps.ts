import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { SqlDialect } from '../dialect/dialect.js';

/**
 * appsMigration creates each account's app (features/apps): its ref, keys and auth settings, and its end users
 * with their sessions, refresh tokens and mail tokens. End users are not accounts: they live in tables of their
 * own, so the same email may be an account and a user of several apps. The session, refresh-token and
 * mail-token tables have exactly the columns of the accounts' own (auth_sessions, refresh_tokens,
 * one_time_tokens), so one set of auth services serves both (features/auth/users/user-pool.ts); in them `account_id`
 * is the end user's id. Everything goes with the account (ON DELETE CASCADE).
 */
export function appsMigration(dialect: SqlDialect): Migration {
  return {
    // biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists.
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('apps')
        .addColumn('account_id', 'text', (c) => c.primaryKey().references('accounts.id').onDelete('cascade'))
        .addColumn('ref', 'text', (c) => c.notNull().unique())
        .addColumn('anon_key', 'text', (c) => c.notNull())
        .addColumn('service_key', 'text', (c) => c.notNull())
        .addColumn('settings', 'text', (c) => c.notNull().defaultTo('{}'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('app_users')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('app_id', 'text', (c) => c.notNull().references('apps.account_id').onDelete('cascade'))
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('username', 'text')
        .addColumn('username_key', 'text')
        .addColumn('password_hash', 'text')
        .addColumn('email_confirmed_at', 'text')
        .addColumn('confirmation_sent_at', 'text')
        .addColumn('recovery_sent_at', 'text')
        .addColumn('new_email', 'text')
        .addColumn('email_change_sent_at', 'text')
        .addColumn('last_sign_in_at', 'text')
        .addColumn('banned_until', 'text')
        .addColumn('user_metadata', 'text', (c) => c.notNull().defaultTo('{}'))
        .addColumn('app_metadata', 'text', (c) => c.notNull().defaultTo('{}'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        // Unique per app, regardless of case (emails are stored lower-cased, usernames beside their key).
        .addUniqueConstraint('app_users_app_email_key', ['app_id', 'email'])
        .addUniqueConstraint('app_users_app_username_key', ['app_id', 'username_key'])
        .execute();
      // The Users page lists newest first, a page at a time.
      await db.schema
        .createIndex('app_users_app_created_idx')
        .on('app_users')
        .columns(['app_id', 'created_at', 'id'])
        .execute();

      await db.schema
        .createTable('app_sessions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull().references('app_users.id').onDelete('cascade'))
        .addColumn('amr', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('cookie_token_hash', 'text', (c) => c.unique())
        .addColumn('user_agent', 'text')
        .addColumn('ip', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('app_sessions_user_idx').on('app_sessions').column('account_id').execute();

      await db.schema
        .createTable('app_refresh_tokens')
        .addColumn('id', dialect.autoIncrementType, (c) => dialect.autoIncrementId(c))
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('session_id', 'text', (c) => c.notNull().references('app_sessions.id').onDelete('cascade'))
        .addColumn('account_id', 'text', (c) => c.notNull().references('app_users.id').onDelete('cascade'))
        .addColumn('parent_id', 'integer')
        .addColumn('revoked', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('revoked_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('app_refresh_tokens_session_idx')
        .on('app_refresh_tokens')
        .column('session_id')
        .execute();
      await db.schema
        .createIndex('app_refresh_tokens_parent_idx')
        .on('app_refresh_tokens')
        .column('parent_id')
        .execute();

      await db.schema
        .createTable('app_one_time_tokens')
        .addColumn('id', dialect.autoIncrementType, (c) => dialect.autoIncrementId(c))
        .addColumn('account_id', 'text', (c) => c.notNull().references('app_users.id').onDelete('cascade'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('otp_hash', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('app_one_time_tokens_user_idx')
        .on('app_one_time_tokens')
        .column('account_id')
        .execute();
      await db.schema
        .createIndex('app_one_time_tokens_email_idx')
        .on('app_one_time_tokens')
        .columns(['email', 'kind'])
        .execute();
    },
  };
}
