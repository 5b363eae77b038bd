import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { SqlDialect } from '../dialect/dialect.js';

/**
 * secretsMigration creates the secrets functions read as environment variables (features/secrets) and each
 * account's data key. An encrypted secret's value is AES-256-GCM ciphertext under its account's data key, which is
 * stored only wrapped by the instance's master key (lib/crypto); `master_key_id` names the master key that wrapped
 * it, so a rotation knows what to re-wrap. A plain-text secret's value is stored as sent.
 */
export function secretsMigration(dialect: SqlDialect): Migration {
  return {
    // biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists.
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('secrets')
        .addColumn('id', dialect.autoIncrementType, (c) => dialect.autoIncrementId(c))
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('value', 'text', (c) => c.notNull())
        .addColumn('is_encrypted', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('secrets_account_name_key')
        .on('secrets')
        .columns(['account_id', 'name'])
        .unique()
        .execute();

      await db.schema
        .createTable('account_data_keys')
        .addColumn('account_id', 'text', (c) => c.primaryKey().references('accounts.id').onDelete('cascade'))
        .addColumn('wrapped_key', 'text', (c) => c.notNull())
        .addColumn('master_key_id', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
    },
  };
}
