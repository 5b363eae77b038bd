import fs from 'node:fs/promises';
import path from 'node:path';
import { backupDirOf } from '../../config.js';
import { appliedMigrations, type RestorePlan, replaceDatabase, restoreRefusal } from '../../db/backup/database-part.js';
import type { DatabasePartFormat } from '../../db/dialect/backup-dialect.js';
import { systemMigrations } from '../../db/migrations/index.js';
import { ArchiveError, extractArchive, verifyFiles } from '../../lib/archive/archive.js';
import type { BackupDeps } from './backup-deps.js';
import type { HeldLease } from './backup-lease.js';
import { type BackupManifest, levelRefusal, readManifest } from './backup-manifest.js';
import { failureReason, insertNewBackup, runBackup } from './backup-runner.js';
import { type BackupRow, CATALOGUE_TABLES, readCatalogue, updateBackup, writeCatalogue } from './backups.store.js';
import { restoreGuardOf } from './restore-guard.js';

// Restoring an archive (docs/backups.md): it is unpacked and checked first (manifest, every checksum, migration
// level, whether this engine can read its database part), so that a bad archive is refused before anything
// changes. Then every node refuses writes, the current state is backed up, the archive's database is built beside
// the live one and swapped in at once (db/backup), the other parts follow, and every node's caches are dropped.

// What one archive may unpack to: far beyond any real instance, short of filling a disk with a crafted file.
const EXTRACT_LIMITS = { maxEntries: 2_000_000, maxBytes: 4 * 1024 ** 4 };
// How long the other nodes have to hear that writes stop before the current state is read.
const QUIET_MS = 500;

/** OpenedArchive is an archive unpacked into a work folder and checked. */
export interface OpenedArchive {
  manifest: BackupManifest;
  dir: string;
  workDir: string;
}

/** ArchiveRefusal is an archive refused for what it holds (a 422: it is readable, but not here). */
export class ArchiveRefusal extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ArchiveRefusal';
  }
}

/**
 * openArchive unpacks an archive into `workDir` and checks it all: a damaged or foreign archive throws ArchiveError,
 * one this server cannot restore (a newer level, a dump it has no tool for) throws ArchiveRefusal.
 */
export async function openArchive(deps: BackupDeps, file: string, workDir: string): Promise<OpenedArchive> {
  const dir = path.join(workDir, 'unpacked');
  await extractArchive(file, dir, EXTRACT_LIMITS);
  const manifest = await readManifest(dir);
  await verifyFiles(
    dir,
    manifest.parts.flatMap((part) => part.files),
  );
  const database = manifest.parts.find((part) => part.name === 'database');
  if (!database) throw new ArchiveError('The archive is not a Basalt backup: it has no database part');
  const known = Object.keys(systemMigrations(deps.db.dialect));
  const level = levelRefusal(manifest, known, await appliedMigrations(deps.db));
  if (level) throw new ArchiveRefusal(level);
  const refusal = await restoreRefusal(deps.db, {
    format: database.format as DatabasePartFormat,
    engineVersion: manifest.engineVersion,
  });
  if (refusal) throw new ArchiveRefusal(refusal);
  return { manifest, dir, workDir };
}

/** restoreWorkDirOf is the folder a restore of a backup unpacks into. */
export function restoreWorkDirOf(deps: BackupDeps, backupId: string): string {
  return path.join(backupDirOf(deps.config), `.restore-${backupId}`);
}

/** markRestoring records on a backup's row that a restore from it starts. */
export async function markRestoring(deps: BackupDeps, row: BackupRow): Promise<BackupRow> {
  const fields = {
    restore_status: 'IN_PROGRESS',
    restore_step: 'starting',
    restore_error: null,
    restore_started_at: new Date().toISOString(),
    restore_finished_at: null,
  };
  await updateBackup(deps.db.kysely, row.id, fields);
  return { ...row, ...fields };
}

/**
 * runRestore restores an opened archive (the caller holds the lease for it, and `row` is the backup restored,
 * marked by markRestoring); it records the outcome on the row and never throws. The work folder is removed at
 * the end.
 */
export async function runRestore(
  deps: BackupDeps,
  row: BackupRow,
  archive: OpenedArchive,
  lease: HeldLease,
  createdBy: string | null,
): Promise<{ ok: boolean; error: string | null }> {
  const guard = restoreGuardOf(deps.db);
  const step = (text: string) => updateBackup(deps.db.kysely, row.id, { restore_step: text }).catch(() => {});
  try {
    guard.announce(true);
    await step('refusing writes');
    await new Promise((resolve) => setTimeout(resolve, QUIET_MS));
    await step('backing up the current state');
    const before = await insertNewBackup(deps, {
      name: `Before restoring "${row.name}"`,
      description: `Taken automatically before the restore of ${row.name} (${row.id})`,
      includeFiles: row.include_files === 1,
      origin: 'pre-restore',
      createdBy,
    });
    const safety = await runBackup(deps, before);
    if (!safety.ok) throw new Error(`The backup of the current state failed, so nothing was restored: ${safety.error}`);
    const database = archive.manifest.parts.find((part) => part.name === 'database');
    if (!database) throw new Error('The archive has no database part');
    const plan: RestorePlan = {
      dir: path.join(archive.dir, 'database'),
      format: database.format as DatabasePartFormat,
      migrations: archive.manifest.migrations,
      engineVersion: archive.manifest.engineVersion,
    };
    await step('building the restored database');
    const catalogue = await readCatalogue(deps.db.kysely);
    await replaceDatabase(deps.db, plan, archive.workDir, {
      keepTables: CATALOGUE_TABLES,
      carryOver: (target) => writeCatalogue(target.kysely, catalogue),
      onStep: (text) => void step(text),
      onProgress: () => {},
    });
    for (const part of deps.parts) {
      const entry = archive.manifest.parts.find((p) => p.name === part.name);
      if (!entry) continue;
      await step(`restoring ${part.name}`);
      await part.restore(
        path.join(archive.dir, part.name),
        entry.files.map((f) => f.path.slice(part.name.length + 1)),
      );
    }
    deps.db.publish('instance.restored', { backupId: row.id });
    await updateBackup(deps.db.kysely, row.id, {
      restore_status: 'COMPLETED',
      restore_step: null,
      restore_finished_at: new Date().toISOString(),
    });
    deps.log.info(`Restored backup "${row.name}"`, { job: 'restore', backupId: row.id });
    return { ok: true, error: null };
  } catch (error) {
    const reason = failureReason(error);
    await updateBackup(deps.db.kysely, row.id, {
      restore_status: 'FAILED',
      restore_step: null,
      restore_error: reason,
      restore_finished_at: new Date().toISOString(),
    }).catch(() => {});
    deps.log.error(`Restore of backup "${row.name}" failed: ${reason}`, { job: 'restore', backupId: row.id });
    return { ok: false, error: reason };
  } finally {
    guard.announce(false);
    await lease.release().catch(() => {});
    await fs.rm(archive.workDir, { recursive: true, force: true });
  }
}
