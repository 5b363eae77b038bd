import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * storageMigration creates file storage's metadata (features/storage): `storage_buckets`, one row per bucket of an
 * account (its name is the account's own: two accounts may both have `avatars`), with its public flag, limits and
 * access rules for the account's app users; and `storage_objects`, one row per stored object. An object's bytes are
 * kept under its `version` (a random id), never under the name a client chose, so a name cannot reach a file
 * outside the store, and a replaced object's old bytes are removed only once the new row has committed.
 */
export function storageMigration(): Migration {
  return {
    // biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists.
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('storage_buckets')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('public', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('file_size_limit', 'bigint')
        .addColumn('allowed_mime_types', 'text')
        .addColumn('access', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('storage_buckets_account_name_key')
        .on('storage_buckets')
        .columns(['account_id', 'name'])
        .unique()
        .execute();
      await db.schema.createIndex('storage_buckets_name_idx').on('storage_buckets').column('name').execute();

      await db.schema
        .createTable('storage_objects')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('bucket_id', 'text', (c) => c.notNull().references('storage_buckets.id').onDelete('cascade'))
        .addColumn('account_id', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('owner', 'text')
        .addColumn('size', 'bigint', (c) => c.notNull())
        .addColumn('mime_type', 'text', (c) => c.notNull())
        .addColumn('cache_control', 'text', (c) => c.notNull())
        .addColumn('etag', 'text', (c) => c.notNull())
        .addColumn('version', 'text', (c) => c.notNull())
        .addColumn('user_metadata', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('storage_objects_bucket_name_key')
        .on('storage_objects')
        .columns(['bucket_id', 'name'])
        .unique()
        .execute();
      await db.schema.createIndex('storage_objects_account_idx').on('storage_objects').column('account_id').execute();
    },
  };
}
