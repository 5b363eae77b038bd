import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import type { Db } from '../../db/database.js';
import type { LogWriter } from './log-writer.js';
import { deleteOldLogs, findLogPosition } from './logs.store.js';

// Log retention: system_logs keeps entries for LOG_RETENTION_DAYS and at most LOG_RETENTION_MAX_ROWS of them
// (config.ts). A job enforces both a minute after start and then every hour, in every server process (the
// deletes are idempotent, so several processes sharing PostgreSQL do no harm). Between runs the log may pass
// the row limit by an hour of traffic. Each run is itself logged (source `jobs`).

/** LOG_RETENTION_RHYTHM is when the job runs (app-jobs.ts). */
export const LOG_RETENTION_RHYTHM = { firstAfterMs: 60_000, everyMs: 3_600_000 };

/**
 * LOG_RETENTION_CHUNK is how many entries one statement deletes; the job yields between statements, so that none
 * holds the database (on SQLite, the whole process) for long. On SQLite each deleted entry also leaves the search
 * index (its trigrams are read again), which makes a delete about seven times dearer: 1,000 take some 30
 * milliseconds (bench/logs.mjs measures them).
 */
const LOG_RETENTION_CHUNK = 1000;

/** RetentionPolicy is how long and how many entries to keep. */
export interface RetentionPolicy {
  maxAgeDays: number;
  maxRows: number;
}

/** RetentionResult says what one run deleted. */
export interface RetentionResult {
  deletedByAge: number;
  deletedByCount: number;
  durationMs: number;
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/** enforceLogRetention deletes the entries older than the policy's age, then the oldest beyond its row count. */
export async function enforceLogRetention(db: Db, policy: RetentionPolicy, now = new Date()): Promise<RetentionResult> {
  const started = performance.now();
  const before = new Date(now.getTime() - policy.maxAgeDays * 86_400_000).toISOString();
  let deletedByAge = 0;
  for (;;) {
    const deleted = await deleteOldLogs(db.kysely, { before }, LOG_RETENTION_CHUNK);
    deletedByAge += deleted;
    if (deleted < LOG_RETENTION_CHUNK) break;
    await nextTurn();
  }
  let deletedByCount = 0;
  // The newest entry beyond the limit: it and everything older go.
  const through = await findLogPosition(db.kysely, policy.maxRows);
  if (through) {
    for (;;) {
      const deleted = await deleteOldLogs(db.kysely, { through }, LOG_RETENTION_CHUNK);
      deletedByCount += deleted;
      if (deleted < LOG_RETENTION_CHUNK) break;
      await nextTurn();
    }
  }
  return { deletedByAge, deletedByCount, durationMs: Math.round((performance.now() - started) * 10) / 10 };
}

/** LogRetentionDeps is what the log retention job uses of the server. */
export interface LogRetentionDeps {
  db: Db;
  config: Pick<Config, 'logRetentionDays' | 'logRetentionMaxRows'>;
  log: FastifyBaseLogger;
  logs: LogWriter;
}

/** runLogRetention enforces the instance's policy now and logs the run (source `jobs`); null when it failed. */
export async function runLogRetention(ctx: LogRetentionDeps, now?: Date): Promise<RetentionResult | null> {
  const policy: RetentionPolicy = { maxAgeDays: ctx.config.logRetentionDays, maxRows: ctx.config.logRetentionMaxRows };
  const context = { job: 'log-retention', maxAgeDays: policy.maxAgeDays, maxRows: policy.maxRows };
  try {
    const result = await enforceLogRetention(ctx.db, policy, now);
    const deleted = result.deletedByAge + result.deletedByCount;
    ctx.logs.write({
      level: 'info',
      source: 'jobs',
      message: `Log retention deleted ${deleted} ${deleted === 1 ? 'entry' : 'entries'}`,
      context: { ...context, ...result },
    });
    return result;
  } catch (error) {
    ctx.log.warn({ err: error }, 'log retention failed');
    ctx.logs.write({
      level: 'error',
      source: 'jobs',
      message: `Log retention failed: ${error instanceof Error ? error.message : String(error)}`,
      context,
    });
    return null;
  }
}
