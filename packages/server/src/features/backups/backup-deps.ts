import { randomBytes } from 'node:crypto';
import os from 'node:os';
import type { AppContext } from '../../app-context.js';
import type { Config } from '../../config.js';
import type { Db } from '../../db/database.js';

/**
 * ArchivePart is what another feature adds to an instance backup: its own files, in a folder of the archive
 * named after it. The database is always in an archive; parts are written only when a backup includes stored
 * files (`includeFiles`), and restored after the database was swapped in. Stored files (features/storage) join
 * here by adding theirs to the list given to backups in app.ts.
 */
export interface ArchivePart {
  /** name is the part's folder inside the archive (lower-case letters, digits and dashes). */
  name: string;
  /** format says how the part holds its data, for a later reader of the manifest. */
  format: string;
  /** write puts the part's files into `dir` (empty, made for it) and returns their paths relative to it. */
  write(dir: string): Promise<string[]>;
  /** restore brings the part back from `dir`, where the archive's files of the part were unpacked. */
  restore(dir: string, files: string[]): Promise<void>;
}

/** BackupLog is where a backup or restore reports (the system log's `jobs` source, and stdout for warnings). */
export interface BackupLog {
  info(message: string, context?: Record<string, unknown>): void;
  error(message: string, context?: Record<string, unknown>): void;
}

/** BackupDeps is what backups and restores run on. */
export interface BackupDeps {
  db: Db;
  config: Pick<Config, 'dataDir' | 'backups' | 'databaseUrl'>;
  /** holder names this process in the lease (host, pid and a random part). */
  holder: string;
  /** parts are the other features' parts of an archive (stored files); none yet. */
  parts: ArchivePart[];
  log: BackupLog;
  /** running holds the backups and restores under way in this process (closing waits for them). */
  running: Set<Promise<unknown>>;
}

/** processHolder names this process in a lease. */
export function processHolder(): string {
  return `${os.hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
}

const DEPS = Symbol('backup-deps');

/** backupDepsOf is the instance's backup dependencies, made once per database. */
export function backupDepsOf(ctx: AppContext, parts: ArchivePart[] = []): BackupDeps {
  return ctx.db.state(DEPS, () => ({
    db: ctx.db,
    config: ctx.config,
    holder: processHolder(),
    parts,
    running: new Set<Promise<unknown>>(),
    log: {
      info: (message, context = {}) => ctx.logs.write({ level: 'info', source: 'jobs', message, context }),
      error: (message, context = {}) => {
        ctx.log.warn({ ...context }, message);
        ctx.logs.write({ level: 'error', source: 'jobs', message, context });
      },
    },
  }));
}

/** track keeps a background operation in `running` until it settles. */
export function track(deps: BackupDeps, work: Promise<unknown>): void {
  const settled = work.catch(() => {}).finally(() => deps.running.delete(settled));
  deps.running.add(settled);
}
