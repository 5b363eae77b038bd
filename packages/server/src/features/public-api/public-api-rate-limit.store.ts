import { type Kysely, sql } from 'kysely';
import type { SystemDatabase } from '../../db/schema.js';

/**
 * addHits adds `hits` to the shared counter `key` for the window starting at `windowStart` (seconds) and
 * returns the window's total, every process's flushed hits included. One atomic upsert on `rate_limits`; a
 * counter left from an older window restarts at `hits`. Old windows are swept by lib/rate-limit.
 */
export async function addHits(
  db: Kysely<SystemDatabase>,
  key: string,
  windowStart: number,
  hits: number,
): Promise<number> {
  const row = await db
    .insertInto('rate_limits')
    .values({ key, window_start: windowStart, count: hits })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        count: sql<number>`case when rate_limits.window_start >= excluded.window_start then rate_limits.count + excluded.count else excluded.count end`,
        window_start: sql<number>`case when rate_limits.window_start >= excluded.window_start then rate_limits.window_start else excluded.window_start end`,
      }),
    )
    .returning(['count', 'window_start'])
    .executeTakeFirstOrThrow();
  // A row already in a later window (another process's clock runs ahead) counts there; 0 means "nothing known".
  return Number(row.window_start) === windowStart ? Number(row.count) : 0;
}
