import { randomBytes } from 'node:crypto';
import os from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import type { Db } from '../../db/database.js';
import type { LogWriter } from '../logs/log-writer.js';

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

/**
 * createBackupDeps makes the instance's backup dependencies, once per server (app.ts): its routes and its jobs share
 * them, so that closing waits for a backup the API started. Reports go to the system log (source `jobs`), errors
 * to stdout as well.
 */
export function createBackupDeps(
  server: { db: Db; config: BackupDeps['config']; log: FastifyBaseLogger; logs: Pick<LogWriter, 'write'> },
  parts: ArchivePart[] = [],
): BackupDeps {
  const { log, logs } = server;
  return {
    db: server.db,
    config: server.config,
    holder: processHolder(),
    parts,
    running: new Set<Promise<unknown>>(),
    log: {
      info: (message, context = {}) => logs.write({ level: 'info', source: 'jobs', message, context }),
      error: (message, context = {}) => {
        log.warn({ ...context }, message);
        logs.write({ level: 'error', source: 'jobs', message, context });
      },
    },
  };
}

/** track keeps a background operation in `running` until it settles. */
export function track(deps: BackupDeps, work: Promise<unknown>): void {
  const settled = work.catch(() => {}).finally(() => deps.running.delete(settled));
  deps.running.add(settled);
}
