import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { type Backup, backupSchema, createBackupSchema } from '@basalt/shared';
import { backupDirOf } from '../../config.js';
import { ApiError, badRequest, conflict, forbidden, notFound } from '../../http/errors.js';
import { parseInput } from '../../http/validation.js';
import type { Actor } from '../../lib/actor/actor.js';
import { ArchiveError } from '../../lib/archive/archive.js';
import { type BackupDeps, track } from './backup-deps.js';
import { acquireLease } from './backup-lease.js';
import { archiveNameOf, insertNewBackup, runBackup } from './backup-runner.js';
import { type BackupRow, deleteBackupRow, findBackup, listBackups } from './backups.store.js';
import { ArchiveRefusal, markRestoring, openArchive, restoreWorkDirOf, runRestore } from './restore-runner.js';

// Instance backups, for administrators only (anyone else: 403). Creating one answers at once (202) with its
// IN_PROGRESS row; the archive is written in the background and the row follows it. A restore is checked before
// the answer (a bad archive is a 400 or 422 and changes nothing), then runs in the background as well.

const BUSY = 'A backup or restore is already running on this instance; try again when it has finished';

/** requireAdmin throws 403 unless the actor's account administers the instance. */
export function requireAdmin(actor: Actor): void {
  if (!actor.admin) {
    throw forbidden('Only an administrator of this instance can manage backups', 'admin_required');
  }
}

/** backupView is a row as the API answers it. */
export function backupView(row: BackupRow): Backup {
  const number = (value: number | string | null) => (value === null ? null : Number(value));
  return backupSchema.parse({
    id: row.id,
    projectId: row.project_id,
    name: row.name,
    description: row.description,
    size: number(row.size),
    filePath: row.file_path,
    status: row.status,
    completedAt: row.completed_at,
    createdBy: row.created_by,
    createdAt: row.created_at,
    origin: row.origin,
    includeFiles: row.include_files === 1,
    engine: row.engine,
    format: row.format,
    migrationLevel: row.migration_level,
    durationMs: number(row.duration_ms),
    progress: { rows: Number(row.progress_rows), bytes: Number(row.progress_bytes) },
    error: row.error,
    restore: row.restore_status
      ? {
          status: row.restore_status,
          step: row.restore_step,
          error: row.restore_error,
          startedAt: row.restore_started_at,
          finishedAt: row.restore_finished_at,
        }
      : null,
  });
}

// Backup ids are UUIDs: anything else names no backup.
const BACKUP_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

async function backupOf(deps: BackupDeps, id: string): Promise<BackupRow> {
  const row = BACKUP_ID.test(id) ? await findBackup(deps.db.kysely, id) : undefined;
  if (!row) throw notFound('Backup not found', 'backup_not_found');
  return row;
}

/** listBackupsOf lists every backup, newest first. */
export async function listBackupsOf(deps: BackupDeps, actor: Actor): Promise<{ backups: Backup[] }> {
  requireAdmin(actor);
  return { backups: (await listBackups(deps.db.kysely)).map(backupView) };
}

/** getBackup reads one backup: its status, progress and last restore. */
export async function getBackup(deps: BackupDeps, actor: Actor, id: string): Promise<Backup> {
  requireAdmin(actor);
  return backupView(await backupOf(deps, id));
}

/** startBackup creates a backup now: its row is returned at once, the archive follows in the background. */
export async function startBackup(
  deps: BackupDeps,
  actor: Actor | null,
  input: unknown,
  origin: 'manual' | 'scheduled' = 'manual',
): Promise<Backup> {
  if (actor) requireAdmin(actor);
  const body = parseInput(createBackupSchema, input);
  const lease = await acquireLease(deps, 'backup', null);
  if (!lease) throw conflict(BUSY, 'backup_busy');
  let row: BackupRow;
  try {
    row = await insertNewBackup(deps, {
      name: body.name ?? `Backup ${new Date().toISOString().slice(0, 16).replace('T', ' ')}`,
      description: body.description?.trim() || null,
      includeFiles: body.includeFiles,
      origin,
      createdBy: actor?.accountId ?? null,
    });
  } catch (error) {
    await lease.release();
    throw error;
  }
  track(
    deps,
    runBackup(deps, row).finally(() => lease.release()),
  );
  return backupView(row);
}

/** deleteBackup removes a backup's archive and row (not while it is being written or restored). */
export async function deleteBackup(deps: BackupDeps, actor: Actor, id: string): Promise<void> {
  requireAdmin(actor);
  const row = await backupOf(deps, id);
  if (row.status === 'IN_PROGRESS' || row.restore_status === 'IN_PROGRESS') {
    throw conflict('This backup is being written or restored; delete it once that has finished', 'backup_busy');
  }
  if (row.file_path) await fs.rm(path.join(backupDirOf(deps.config), row.file_path), { force: true });
  await deleteBackupRow(deps.db.kysely, row.id);
}

/** BackupDownload is an archive to stream to the client. */
export interface BackupDownload {
  stream: Readable;
  fileName: string;
  size: number;
}

/** downloadBackup opens a completed backup's archive for download. */
export async function downloadBackup(deps: BackupDeps, actor: Actor, id: string): Promise<BackupDownload> {
  requireAdmin(actor);
  const row = await backupOf(deps, id);
  if (row.status !== 'COMPLETED' || !row.file_path) {
    throw conflict('Only a completed backup can be downloaded', 'backup_not_completed');
  }
  const file = path.join(backupDirOf(deps.config), row.file_path);
  const stat = await fs.stat(file).catch(() => null);
  if (!stat)
    throw notFound(`The archive of this backup is missing from ${backupDirOf(deps.config)}`, 'archive_missing');
  return { stream: createReadStream(file), fileName: archiveNameOf(row), size: stat.size };
}

/** archiveProblem turns an archive that cannot be used into the client's error (400: unreadable; 422: not here). */
export function archiveProblem(error: unknown): ApiError | null {
  if (error instanceof ArchiveError) return badRequest('invalid_archive', error.message);
  if (error instanceof ArchiveRefusal) return new ApiError(422, 'archive_not_restorable', error.message);
  return null;
}

/** restoreBackup checks a completed backup's archive and, when it can be restored, starts restoring it. */
export async function restoreBackup(deps: BackupDeps, actor: Actor, id: string): Promise<Backup> {
  requireAdmin(actor);
  const row = await backupOf(deps, id);
  if (row.status !== 'COMPLETED' || !row.file_path) {
    throw conflict('Only a completed backup can be restored', 'backup_not_completed');
  }
  const lease = await acquireLease(deps, 'restore', row.id);
  if (!lease) throw conflict(BUSY, 'backup_busy');
  const workDir = restoreWorkDirOf(deps, row.id);
  let archive: Awaited<ReturnType<typeof openArchive>>;
  try {
    await fs.rm(workDir, { recursive: true, force: true });
    archive = await openArchive(deps, path.join(backupDirOf(deps.config), row.file_path), workDir);
  } catch (error) {
    await lease.release();
    await fs.rm(workDir, { recursive: true, force: true });
    if ((error as { code?: string }).code === 'ENOENT') {
      throw notFound(`The archive of this backup is missing from ${backupDirOf(deps.config)}`, 'archive_missing');
    }
    throw archiveProblem(error) ?? error;
  }
  const restoring = await markRestoring(deps, row);
  track(deps, runRestore(deps, restoring, archive, lease, actor.accountId));
  return backupView(restoring);
}
