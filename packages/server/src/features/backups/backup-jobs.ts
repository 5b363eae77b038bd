import fs from 'node:fs/promises';
import path from 'node:path';
import { backupDirOf } from '../../config.js';
import type { TokenService } from '../auth/sessions/tokens.service.js';
import type { BackupDeps } from './backup-deps.js';
import { acquireLease, liveLease } from './backup-lease.js';
import { readArchiveManifest } from './backup-manifest.js';
import { insertNewBackup, runBackup } from './backup-runner.js';
import { claimRun, pruneScheduled, type ScheduleSettings, startSchedule } from './backup-schedule.js';
import { relistArchive } from './backup-upload.js';
import { listBackups, listUnfinished, updateBackup } from './backups.store.js';
import { startRestoreWatch } from './restore-guard.js';

// The backups' background work on each node: the schedule, the watch that makes writes wait for a restore on
// another node, and the clean-up after a node that died in the middle of a backup or restore (kill -9): once its
// lease has lapsed, what it left IN_PROGRESS is marked FAILED and its half-written files are removed.

const RECOVER_EVERY_MS = 60_000;
const INTERRUPTED = 'Interrupted: the server stopped while it ran (nothing was changed by it)';

/**
 * recoverInterrupted marks what a dead node left IN_PROGRESS as FAILED and removes its work files (at start also
 * half-received uploads and accounts' exports and imports, which hold no lease).
 */
export async function recoverInterrupted(deps: BackupDeps, atStart = false): Promise<number> {
  if (await liveLease(deps)) return 0;
  const now = new Date().toISOString();
  const rows = await listUnfinished(deps.db.kysely);
  for (const row of rows) {
    if (row.status === 'IN_PROGRESS')
      await updateBackup(deps.db.kysely, row.id, { status: 'FAILED', error: INTERRUPTED });
    if (row.restore_status === 'IN_PROGRESS') {
      await updateBackup(deps.db.kysely, row.id, {
        restore_status: 'FAILED',
        restore_step: null,
        restore_error: INTERRUPTED,
        restore_finished_at: now,
      });
    }
  }
  const dir = backupDirOf(deps.config);
  const leftovers = (await fs.readdir(dir).catch(() => [] as string[])).filter(
    (name) =>
      name.startsWith('.work-') ||
      name.startsWith('.restore-') ||
      name.endsWith('.partial') ||
      (atStart && (name.startsWith('.upload-') || name.startsWith('.export-') || name.startsWith('.import-'))),
  );
  for (const name of leftovers) await fs.rm(path.join(dir, name), { recursive: true, force: true });
  await deps.db.backup.cleanUp();
  await relistArchives(deps);
  return rows.length;
}

/**
 * relistArchives lists again the archives of the backups folder that the catalogue lost (a restore that died
 * between its swap and the catalogue's copy), read from their manifests.
 */
async function relistArchives(deps: BackupDeps): Promise<void> {
  const dir = backupDirOf(deps.config);
  const listed = new Set((await listBackups(deps.db.kysely)).map((row) => row.file_path));
  const files = (await fs.readdir(dir).catch(() => [] as string[])).filter(
    (name) => name.startsWith('basalt-') && name.endsWith('.tar.gz') && !listed.has(name),
  );
  for (const name of files) {
    const manifest = await readArchiveManifest(path.join(dir, name)).catch(() => null);
    if (!manifest) continue;
    const size = (await fs.stat(path.join(dir, name))).size;
    await relistArchive(deps, name, manifest, size);
  }
}

/** runScheduledBackup takes one scheduled backup (unless another backup or restore runs) and applies retention. */
export async function runScheduledBackup(deps: BackupDeps, settings: ScheduleSettings, runAt: Date): Promise<void> {
  if (!(await claimRun(deps, runAt.toISOString()))) return;
  const lease = await acquireLease(deps, 'backup', null);
  if (!lease) {
    deps.log.info('Scheduled backup skipped: another backup or restore was running', { job: 'backup' });
    return;
  }
  try {
    const row = await insertNewBackup(deps, {
      name: `Scheduled backup ${runAt.toISOString().slice(0, 16).replace('T', ' ')}`,
      description: null,
      includeFiles: false,
      origin: 'scheduled',
      createdBy: null,
    });
    const result = await runBackup(deps, row);
    if (result.ok) await pruneScheduled(deps, settings.keep);
  } finally {
    await lease.release();
  }
}

/**
 * startBackupJobs starts the backups' background work of this node (the schedule unless BACKUP_SCHEDULER=off)
 * and returns the function that stops it, waiting for a backup or restore under way.
 */
export function startBackupJobs(deps: BackupDeps, tokens: Pick<TokenService, 'reload'>): () => Promise<void> {
  const report = (error: unknown) => deps.log.error(`Backup clean-up failed: ${String(error)}`);
  recoverInterrupted(deps, true).catch(report);
  const recovery = setInterval(() => recoverInterrupted(deps).catch(report), RECOVER_EVERY_MS);
  recovery.unref();
  const stopWatch = startRestoreWatch(deps.db);
  // A restored database may hold another instance's signing keys: every node signs and verifies with them.
  const stopReload = deps.db.bus.subscribe('instance.restored', () => {
    tokens.reload().catch(report);
  });
  const stopSchedule = deps.config.backups.scheduler
    ? startSchedule(deps, (runAt, settings) => {
        const work = runScheduledBackup(deps, settings, runAt);
        deps.running.add(work);
        return work.finally(() => deps.running.delete(work));
      })
    : () => {};
  return async () => {
    clearInterval(recovery);
    stopReload();
    stopSchedule();
    await stopWatch();
    await Promise.allSettled([...deps.running]);
  };
}
