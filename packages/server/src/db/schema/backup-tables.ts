// The tables of instance backups (migration 0032, features/backups): the catalogue, the schedule and the lease.
// A restore keeps them as they are: they describe the instance, not its data.

/** DatabaseBackupsTable is the catalogue of instance backups (features/backups); a restore keeps it as it is. */
export interface DatabaseBackupsTable {
  id: string;
  project_id: string | null;
  name: string;
  description: string | null;
  /** The archive's size in bytes once written (bigint: a string from PostgreSQL). */
  size: number | string | null;
  /** The archive's file name inside the backups directory. */
  file_path: string | null;
  /** IN_PROGRESS, COMPLETED or FAILED. */
  status: string;
  completed_at: string | null;
  created_by: string | null;
  created_at: string;
  /** manual, scheduled, pre-restore, uploaded or cli. */
  origin: string;
  include_files: number;
  engine: string | null;
  /** The database part's format: sqlite-file, pg-dump or logical. */
  format: string | null;
  migration_level: string | null;
  duration_ms: number | string | null;
  progress_rows: number | string;
  progress_bytes: number | string;
  /** Why the backup failed. */
  error: string | null;
  /** The last restore from this archive: IN_PROGRESS, COMPLETED or FAILED (null: never restored). */
  restore_status: string | null;
  restore_step: string | null;
  restore_error: string | null;
  restore_started_at: string | null;
  restore_finished_at: string | null;
}

/** BackupSettingsTable holds the backup schedule (key `schedule`, JSON). */
export interface BackupSettingsTable {
  key: string;
  value: string;
}

/** BackupLeasesTable holds the lease of the node that backs up or restores (one row, `instance`). */
export interface BackupLeasesTable {
  name: string;
  holder: string;
  /** backup or restore: while a restore holds it, every node refuses writes. */
  operation: string;
  backup_id: string | null;
  expires_at: string;
}
