import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../../config.js';
import { backupDirOf } from '../../config.js';
import type { Db } from '../../db/database.js';
import { type ArchivePart, type BackupDeps, processHolder } from './backup-deps.js';
import { acquireLease } from './backup-lease.js';
import { insertNewBackup, runBackup } from './backup-runner.js';
import { listArchive } from './backup-upload.js';
import { type BackupRow, findBackup } from './backups.store.js';
import { ArchiveRefusal, markRestoring, openArchive, restoreWorkDirOf, runRestore } from './restore-runner.js';

// `basalt backup [--out file]` and `basalt restore <file>`: what the API does, from the command line, with the
// server stopped (on PostgreSQL, running nodes refuse writes while the restore holds the lease). Both are
// listed in the catalogue like the API's.

const BUSY = 'A backup or restore is already running on this instance (another process holds the lease).';

function cliDeps(db: Db, config: Config, parts: ArchivePart[]): BackupDeps {
  return {
    db,
    config,
    holder: processHolder(),
    parts,
    running: new Set(),
    log: {
      info: (message) => console.log(message),
      error: (message) => console.error(message),
    },
  };
}

/** backupFromCli takes a backup into the backups folder (and copies it to `out`); it returns the exit code. */
export async function backupFromCli(
  db: Db,
  config: Config,
  options: { out?: string; files?: boolean },
  parts: ArchivePart[] = [],
): Promise<number> {
  const deps = cliDeps(db, config, parts);
  const lease = await acquireLease(deps, 'backup', null);
  if (!lease) {
    console.error(BUSY);
    return 1;
  }
  try {
    const row = await insertNewBackup(deps, {
      name: `Backup ${new Date().toISOString().slice(0, 16).replace('T', ' ')} (command line)`,
      description: null,
      includeFiles: options.files === true,
      origin: 'cli',
      createdBy: null,
    });
    const result = await runBackup(deps, row);
    if (!result.ok) return 1;
    const done = (await findBackup(db.kysely, row.id)) as BackupRow;
    const file = path.join(backupDirOf(config), done.file_path ?? '');
    if (options.out) await fs.copyFile(file, path.resolve(options.out));
    console.log(
      `Backup written: ${options.out ? path.resolve(options.out) : file} (${done.size} bytes, ${done.format})`,
    );
    return 0;
  } finally {
    await lease.release();
  }
}

/** restoreFromCli restores an archive file onto the configured database; it returns the exit code. */
export async function restoreFromCli(
  db: Db,
  config: Config,
  file: string | undefined,
  parts: ArchivePart[] = [],
): Promise<number> {
  if (!file) {
    console.error('Name the archive to restore: basalt restore <file>');
    return 2;
  }
  const deps = cliDeps(db, config, parts);
  const source = path.resolve(file);
  const stat = await fs.stat(source).catch(() => null);
  if (!stat?.isFile()) {
    console.error(`No archive at ${source}`);
    return 2;
  }
  const id = randomUUID();
  const lease = await acquireLease(deps, 'restore', id);
  if (!lease) {
    console.error(BUSY);
    return 1;
  }
  const workDir = restoreWorkDirOf(deps, id);
  let archive: Awaited<ReturnType<typeof openArchive>>;
  try {
    archive = await openArchive(deps, source, workDir);
  } catch (error) {
    await lease.release();
    await fs.rm(workDir, { recursive: true, force: true });
    const known = error instanceof ArchiveRefusal || (error as Error).name === 'ArchiveError';
    console.error(known ? (error as Error).message : `The archive could not be read: ${(error as Error).message}`);
    return 1;
  }
  // The archive joins the catalogue (as an upload would), so that the restore is recorded on its row.
  const listed = await listArchive(deps, source, archive.manifest, {
    id,
    size: stat.size,
    name: null,
    origin: 'cli',
    createdBy: null,
  });
  const result = await runRestore(deps, await markRestoring(deps, listed), archive, lease, null);
  if (!result.ok) {
    console.error(`Restore failed: ${result.error}`);
    return 1;
  }
  console.log(`Restored ${source} (${archive.manifest.engine}, ${archive.manifest.migrationLevel}).`);
  return 0;
}
