import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { BACKUP_LIMITS, type Backup } from '@basalt/shared';
import { backupDirOf } from '../../config.js';
import { receiveFile } from '../../http/archive-upload.js';
import { badRequest } from '../../http/errors.js';
import type { Actor } from '../../lib/actor/actor.js';
import type { BackupDeps } from './backup-deps.js';
import type { BackupManifest } from './backup-manifest.js';
import { archiveNameOf } from './backup-runner.js';
import { archiveProblem, backupView, requireAdmin } from './backups.service.js';
import { type BackupRow, insertBackup } from './backups.store.js';
import { openArchive } from './restore-runner.js';

// An archive sent by the administrator (another instance's backup, one downloaded earlier): streamed to disk
// within BACKUP_UPLOAD_MAX_BYTES, unpacked and checked like a restore checks it, then listed as a COMPLETED
// backup (origin `uploaded`). A damaged, foreign or too new archive is refused and nothing is kept.

/**
 * listArchive moves a checked archive file into the backups folder and lists it as a COMPLETED backup with the
 * facts of its manifest.
 */
export async function listArchive(
  deps: BackupDeps,
  file: string,
  manifest: BackupManifest,
  options: CatalogueFacts,
): Promise<BackupRow> {
  const row = catalogueRow(manifest, options);
  row.file_path = archiveNameOf(row);
  const dir = backupDirOf(deps.config);
  await fs.mkdir(dir, { recursive: true });
  await fs.copyFile(file, path.join(dir, row.file_path));
  await insertBackup(deps.db.kysely, row);
  return row;
}

/** CatalogueFacts are what an archive's row takes from elsewhere than its manifest. */
interface CatalogueFacts {
  id: string;
  size: number;
  name: string | null;
  origin: 'uploaded' | 'cli' | 'found';
  createdBy: string | null;
}

function catalogueRow(manifest: BackupManifest, options: CatalogueFacts): BackupRow {
  const now = new Date().toISOString();
  return {
    id: options.id,
    project_id: null,
    name: options.name ?? manifest.name,
    description: manifest.description,
    size: options.size,
    file_path: null,
    status: 'COMPLETED',
    completed_at: now,
    created_by: options.createdBy,
    created_at: now,
    origin: options.origin,
    include_files: manifest.includeFiles ? 1 : 0,
    engine: manifest.engine,
    format: manifest.parts.find((part) => part.name === 'database')?.format ?? null,
    migration_level: manifest.migrationLevel,
    duration_ms: null,
    progress_rows: 0,
    progress_bytes: options.size,
    error: null,
    restore_status: null,
    restore_step: null,
    restore_error: null,
    restore_started_at: null,
    restore_finished_at: null,
  };
}

/** relistArchive lists an archive already in the backups folder under its own name (found there unlisted). */
export async function relistArchive(deps: BackupDeps, fileName: string, manifest: BackupManifest, size: number) {
  const row: BackupRow = {
    ...catalogueRow(manifest, { id: randomUUID(), size, name: null, origin: 'found', createdBy: null }),
    created_at: manifest.createdAt,
    file_path: fileName,
  };
  await insertBackup(deps.db.kysely, row);
}

/** uploadBackup receives an archive, checks it and lists it as a backup. */
export async function uploadBackup(deps: BackupDeps, actor: Actor, body: Readable, name: unknown): Promise<Backup> {
  requireAdmin(actor);
  if (name !== undefined && (typeof name !== 'string' || name.length > BACKUP_LIMITS.nameMax || name.includes('\0'))) {
    throw badRequest('validation_failed', `Name must be text of at most ${BACKUP_LIMITS.nameMax} characters`);
  }
  const dir = backupDirOf(deps.config);
  await fs.mkdir(dir, { recursive: true });
  const id = randomUUID();
  const received = path.join(dir, `.upload-${id}.tar.gz`);
  const workDir = path.join(dir, `.upload-${id}`);
  try {
    const size = await receiveFile(body, received, deps.config.backups.uploadMaxBytes);
    let manifest: Awaited<ReturnType<typeof openArchive>>['manifest'];
    try {
      ({ manifest } = await openArchive(deps, received, workDir));
    } catch (error) {
      throw archiveProblem(error) ?? error;
    }
    const row = await listArchive(deps, received, manifest, {
      id,
      size,
      name: typeof name === 'string' && name.trim() ? name.trim() : null,
      origin: 'uploaded',
      createdBy: actor.accountId,
    });
    return backupView(row);
  } finally {
    await fs.rm(received, { force: true });
    await fs.rm(workDir, { recursive: true, force: true });
  }
}
