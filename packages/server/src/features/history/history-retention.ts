import type { AppContext } from '../../app-context.js';
import type { Db } from '../../db/database.js';
import { deleteExpiredChanges } from './history.store.js';

// History retention (HISTORY_RETENTION_DAYS, default 90; 0 keeps every change for ever). A background timer
// in every server process deletes changes older than the retention, except those a checkpoint still needs:
// every change of its table from its own change on, so that restoring it always finds what it reverts.
// Several processes sharing PostgreSQL may prune at the same time; deleting is idempotent.

/** PRUNE_EVERY_MS is how often the timer prunes; the first run is PRUNE_FIRST_MS after start. */
const PRUNE_EVERY_MS = 60 * 60 * 1000;
const PRUNE_FIRST_MS = 60 * 1000;
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
  for (;;) {
    const deleted = await deleteExpiredChanges(db.kysely, cutoff, PRUNE_BATCH);
    total += deleted;
    if (deleted < PRUNE_BATCH) return total;
  }
}

/** startHistoryRetention starts the pruning timer (none when retention is 0); each run is a `jobs` log entry. */
export function startHistoryRetention(ctx: AppContext): () => Promise<void> {
  const retentionDays = ctx.config.historyRetentionDays;
  if (!(retentionDays > 0)) return async () => {};
  const context = { job: 'history-retention', retentionDays };
  let running: Promise<void> = Promise.resolve();
  const run = () => {
    running = pruneHistory(ctx.db, { retentionDays })
      .then((deleted) => {
        ctx.logs.write({
          level: 'info',
          source: 'jobs',
          message: `History retention deleted ${deleted} ${deleted === 1 ? 'change' : 'changes'}`,
          context: { ...context, deleted },
        });
      })
      .catch((error: unknown) => {
        ctx.log.warn({ err: error }, 'history pruning failed; it will run again');
        ctx.logs.write({
          level: 'error',
          source: 'jobs',
          message: `History retention failed: ${error instanceof Error ? error.message : String(error)}`,
          context,
        });
      });
  };
  const first = setTimeout(run, PRUNE_FIRST_MS);
  const timer = setInterval(run, PRUNE_EVERY_MS);
  first.unref();
  timer.unref();
  return async () => {
    clearTimeout(first);
    clearInterval(timer);
    await running;
  };
}
