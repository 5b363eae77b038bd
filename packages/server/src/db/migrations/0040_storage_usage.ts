import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * storageUsageMigration adds file storage's kept counters and its resumable uploads (features/storage):
 * `storage_usage`, one row per account with the bytes and the number of its stored objects, kept by every object
 * write in the write's transaction (usage reads it instead of summing objects); and `storage_resumable_uploads`,
 * one row per unfinished TUS upload (its size, the offset reached, its metadata, how many chunks its bytes are in;
 * the chunks themselves live in the blob store), so that any node continues or expires any upload. The uploads'
 * rows do not cascade with their account: the expiry job finds an account's leftovers and removes their bytes.
 */
export function storageUsageMigration(): Migration {
  return {
    // biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists.
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('storage_usage')
        .addColumn('account_id', 'text', (c) => c.primaryKey().references('accounts.id').onDelete('cascade'))
        .addColumn('bytes', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('objects', 'bigint', (c) => c.notNull().defaultTo(0))
        .execute();
      await sql`INSERT INTO storage_usage (account_id, bytes, objects)
        SELECT account_id, sum(size), count(*) FROM storage_objects
        WHERE account_id IN (SELECT id FROM accounts) GROUP BY account_id`.execute(db);
      await db.schema
        .createTable('storage_resumable_uploads')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull())
        .addColumn('size', 'bigint', (c) => c.notNull())
        .addColumn('upload_offset', 'bigint', (c) => c.notNull())
        .addColumn('chunks', 'integer', (c) => c.notNull())
        .addColumn('metadata', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('storage_resumable_uploads_expiry_idx')
        .on('storage_resumable_uploads')
        .column('expires_at')
        .execute();
    },
  };
}
