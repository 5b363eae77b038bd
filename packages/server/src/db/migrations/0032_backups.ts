import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * backupsMigration creates the catalogue of instance backups (features/backups): `database_backups`, one row per
 * archive (the data model's fields and the run's facts: duration, progress, reason of a failure, the last restore
 * from it), `backup_settings` (the schedule) and `backup_leases`, the row a node holds while it backs up or
 * restores, so that one runs at a time on the whole instance. The three are the instance's, not its data's: a
 * restore keeps them as they are.
 */
export function backupsMigration(): Migration {
  return {
    // biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists.
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('database_backups')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('project_id', 'text')
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('description', 'text')
        .addColumn('size', 'bigint')
        .addColumn('file_path', 'text')
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('IN_PROGRESS'))
        .addColumn('completed_at', 'text')
        .addColumn('created_by', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('origin', 'text', (c) => c.notNull())
        .addColumn('include_files', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('engine', 'text')
        .addColumn('format', 'text')
        .addColumn('migration_level', 'text')
        .addColumn('duration_ms', 'bigint')
        .addColumn('progress_rows', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('progress_bytes', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('error', 'text')
        .addColumn('restore_status', 'text')
        .addColumn('restore_step', 'text')
        .addColumn('restore_error', 'text')
        .addColumn('restore_started_at', 'text')
        .addColumn('restore_finished_at', 'text')
        .execute();
      await db.schema.createIndex('database_backups_created_idx').on('database_backups').column('created_at').execute();

      await db.schema
        .createTable('backup_settings')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('backup_leases')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('holder', 'text', (c) => c.notNull())
        .addColumn('operation', 'text', (c) => c.notNull())
        .addColumn('backup_id', 'text')
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .execute();
    },
  };
}
