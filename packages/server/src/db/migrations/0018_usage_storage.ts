import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * usageStorageMigration keeps each account's measured storage per day beside its API calls (`user_usage`): the
 * day's highest measurement in bytes, null for a day on which storage was not measured.
 */
export function usageStorageMigration(): Migration {
  return {
    // biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists.
    async up(db: Kysely<any>) {
      await db.schema.alterTable('user_usage').addColumn('storage_bytes', 'bigint').execute();
    },
  };
}
