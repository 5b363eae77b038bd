import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { backupDirOf } from '../../config.js';
import { appliedMigrations, writeDatabasePart } from '../../db/backup/database-part.js';
import { Pacer } from '../../db/backup/pace.js';
import { describeFiles, MANIFEST_FILE, writeArchiveFile } from '../../lib/archive/archive.js';
import type { BackupDeps } from './backup-deps.js';
import { type ManifestPart, manifestOf, newestMigration, prefixed } from './backup-manifest.js';
import { type BackupRow, insertBackup, updateBackup } from './backups.store.js';

// Writing one backup's archive (docs/backups.md): the database's part (db/backup), the other features' parts when
// files are included, the manifest, then one .tar.gz written under a temporary name and renamed once on disk. The
// row says IN_PROGRESS with the rows and bytes so far, then COMPLETED with size and duration, or FAILED with the
// reason; a failed backup leaves no file behind.

// Progress is written to the row at most this often.
const PROGRESS_EVERY_MS = 1000;

/** NewBackup is what a backup's row starts with. */
export interface NewBackup {
  name: string;
  description: string | null;
  includeFiles: boolean;
  origin: 'manual' | 'scheduled' | 'pre-restore' | 'uploaded' | 'cli';
  createdBy: string | null;
}

/** insertNewBackup adds the row of a backup about to run (IN_PROGRESS) and returns it. */
export async function insertNewBackup(deps: BackupDeps, backup: NewBackup): Promise<BackupRow> {
  const row: BackupRow = {
    id: randomUUID(),
    project_id: null,
    name: backup.name,
    description: backup.description,
    size: null,
    file_path: null,
    status: 'IN_PROGRESS',
    completed_at: null,
    created_by: backup.createdBy,
    created_at: new Date().toISOString(),
    origin: backup.origin,
    include_files: backup.includeFiles ? 1 : 0,
    engine: deps.db.dialect.name,
    format: null,
    migration_level: null,
    duration_ms: null,
    progress_rows: 0,
    progress_bytes: 0,
    error: null,
    restore_status: null,
    restore_step: null,
    restore_error: null,
    restore_started_at: null,
    restore_finished_at: null,
  };
  await insertBackup(deps.db.kysely, row);
  return row;
}

/** archiveNameOf is a backup's file name: sortable by date, unique by id. */
export function archiveNameOf(row: Pick<BackupRow, 'id' | 'created_at'>): string {
  return `basalt-${row.created_at.replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z')}-${row.id.slice(0, 8)}.tar.gz`;
}

/** failureReason says why a backup failed in words an administrator can act on. */
export function failureReason(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : String(error);
  if (code === 'ENOSPC' || code === 'SQLITE_FULL' || /ENOSPC|database or disk is full/i.test(message)) {
    return 'The disk is full: free space where the backups are stored (BACKUP_DIR), then try again';
  }
  if (code === 'EACCES' || code === 'EPERM') return `Basalt may not write where the backups are stored: ${message}`;
  return message;
}

/**
 * runBackup writes the archive of a backup whose row is IN_PROGRESS (the caller holds the lease) and marks the row
 * COMPLETED or FAILED; it resolves with the final row's facts and never throws.
 */
export async function runBackup(deps: BackupDeps, row: BackupRow): Promise<{ ok: boolean; error: string | null }> {
  const started = Date.now();
  const dir = backupDirOf(deps.config);
  const workDir = path.join(dir, `.work-${row.id}`);
  const file = path.join(dir, archiveNameOf(row));
  let lastWrite = 0;
  const onProgress = (progress: { rows: number; bytes: number }) => {
    const now = Date.now();
    if (now - lastWrite < PROGRESS_EVERY_MS) return;
    lastWrite = now;
    updateBackup(deps.db.kysely, row.id, { progress_rows: progress.rows, progress_bytes: progress.bytes }).catch(
      () => {},
    );
  };
  try {
    await fs.mkdir(workDir, { recursive: true });
    const migrations = await appliedMigrations(deps.db);
    const databaseDir = path.join(workDir, 'database');
    // BACKUP_PACE: the database's reading, the hashing and the packing all work only that share of the time.
    const pace = deps.config.backups.pace;
    const pacer = new Pacer(pace);
    const database = await writeDatabasePart(deps.db, databaseDir, {
      logical: deps.config.backups.format === 'logical',
      workDir,
      pacer,
      onProgress,
    });
    const parts: ManifestPart[] = [
      {
        name: 'database',
        format: database.format,
        files: prefixed('database', await describeFiles(databaseDir, database.files, { pace })),
      },
    ];
    if (row.include_files === 1) {
      for (const part of deps.parts) {
        const partDir = path.join(workDir, part.name);
        await fs.mkdir(partDir, { recursive: true });
        const files = await part.write(partDir);
        parts.push({
          name: part.name,
          format: part.format,
          files: prefixed(part.name, await describeFiles(partDir, files, { pace })),
        });
      }
    }
    const manifest = manifestOf({
      engine: deps.db.dialect.name,
      engineVersion: await deps.db.dialect.serverVersion(deps.db.kysely),
      migrationLevel: newestMigration(migrations),
      migrations,
      createdAt: row.created_at,
      name: row.name,
      description: row.description,
      includeFiles: row.include_files === 1,
      parts,
    });
    await fs.writeFile(path.join(workDir, MANIFEST_FILE), JSON.stringify(manifest, null, 2));
    const size = await writeArchiveFile(
      workDir,
      parts.flatMap((part) => part.files.map((f) => f.path)),
      file,
      { pace },
    );
    const completedAt = new Date().toISOString();
    await updateBackup(deps.db.kysely, row.id, {
      status: 'COMPLETED',
      completed_at: completedAt,
      size,
      file_path: path.basename(file),
      format: database.format,
      migration_level: manifest.migrationLevel,
      duration_ms: Date.now() - started,
      progress_bytes: size,
    });
    deps.log.info(`Backup "${row.name}" completed (${size} bytes)`, { job: 'backup', backupId: row.id, size });
    return { ok: true, error: null };
  } catch (error) {
    const reason = failureReason(error);
    await fs.rm(file, { force: true });
    await updateBackup(deps.db.kysely, row.id, {
      status: 'FAILED',
      error: reason,
      duration_ms: Date.now() - started,
    }).catch(() => {});
    deps.log.error(`Backup "${row.name}" failed: ${reason}`, { job: 'backup', backupId: row.id });
    return { ok: false, error: reason };
  } finally {
    await fs.rm(workDir, { recursive: true, force: true });
  }
}
