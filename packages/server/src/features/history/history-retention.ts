import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import type { Db } from '../../db/database.js';
import { addToHistoryCount } from '../../db/history-counts.js';
import type { LogWriter } from '../logs/log-writer.js';
import { type DeletedChange, deleteUnneededChanges, listExpiredChanges } from './history.store.js';

// History retention (HISTORY_RETENTION_DAYS, default 90; 0 keeps every change for ever). A background job
// in every server process deletes changes older than the retention, except those a checkpoint still needs:
// every change of its table from its own change on, so that restoring it always finds what it reverts.
// Several processes sharing PostgreSQL may prune at the same time; deleting is idempotent, and each one takes
// from the kept counts only what its own delete removed.
//
// A run walks the oldest changes by their ids (which grow with time) up to the first one within the retention, a
// batch at a time, and deletes each batch in a short transaction of its own (with the counts it changes): no statement scans the whole history or holds the
// write lock for long, even when a million changes are kept, or old ones are kept for a checkpoint (those are
// stepped over, not read again by every batch).

/** HISTORY_RETENTION_RHYTHM is when the job prunes (app-jobs.ts): a minute after start, then hourly. */
export const HISTORY_RETENTION_RHYTHM = { firstAfterMs: 60 * 1000, everyMs: 60 * 60 * 1000 };
// Deleted this many at a time, so that no statement holds the history table for long.
const PRUNE_BATCH = 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

/** pruneHistory deletes the changes older than the retention that no checkpoint needs; it returns how many. */
export async function pruneHistory(
  db: Db,
  { retentionDays, now = new Date() }: { retentionDays: number; now?: Date },
): Promise<number> {
  if (!(retentionDays > 0)) return 0;
  const cutoff = new Date(now.getTime() - retentionDays * DAY_MS).toISOString();
  let total = 0;
  let afterId: number | null = null;
  for (;;) {
    const batch = await listExpiredChanges(db.kysely, cutoff, { afterId, limit: PRUNE_BATCH });
    if (batch.ids.length > 0) total += await deleteBatch(db, batch.ids);
    if (batch.done) return total;
    afterId = batch.ids.at(-1) ?? afterId;
  }
}

// Deletes what of a batch no checkpoint needs, and takes it from the kept counts, in one transaction.
async function deleteBatch(db: Db, ids: number[]): Promise<number> {
  return db.transaction(async (scope) => {
    const deleted = await deleteUnneededChanges(scope.kysely, ids);
    for (const { key, n } of countsOf(deleted)) {
      await addToHistoryCount(scope, key, -n);
    }
    return deleted.length;
  });
}

// How many changes of each account's table a delete removed.
function countsOf(deleted: DeletedChange[]): Array<{ key: DeletedChange; n: number }> {
  const byKey = new Map<string, { key: DeletedChange; n: number }>();
  for (const change of deleted) {
    const id = `${change.accountId}\u0000${change.tableId}`;
    const entry = byKey.get(id) ?? { key: change, n: 0 };
    entry.n++;
    byKey.set(id, entry);
  }
  return [...byKey.values()];
}

/** HistoryRetentionDeps is what the history retention job uses of the server. */
export interface HistoryRetentionDeps {
  db: Db;
  config: Pick<Config, 'historyRetentionDays'>;
  log: FastifyBaseLogger;
  logs: LogWriter;
}

/** runHistoryRetention prunes once (nothing when retention is 0) and logs the run as a `jobs` entry. */
export async function runHistoryRetention(ctx: HistoryRetentionDeps): Promise<void> {
  const retentionDays = ctx.config.historyRetentionDays;
  if (!(retentionDays > 0)) return;
  const context = { job: 'history-retention', retentionDays };
  try {
    const deleted = await pruneHistory(ctx.db, { retentionDays });
    ctx.logs.write({
      level: 'info',
      source: 'jobs',
      message: `History retention deleted ${deleted} ${deleted === 1 ? 'change' : 'changes'}`,
      context: { ...context, deleted },
    });
  } catch (error) {
    ctx.log.warn({ err: error }, 'history pruning failed; it will run again');
    ctx.logs.write({
      level: 'error',
      source: 'jobs',
      message: `History retention failed: ${error instanceof Error ? error.message : String(error)}`,
      context,
    });
  }
}
