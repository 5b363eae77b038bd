import { type Kysely, sql } from 'kysely';
import type { SystemDatabase } from '../../db/schema.js';

/**
 * countHit adds one hit to the counter `key` in the window starting at `windowStart` and returns the
 * window's count. One atomic upsert, so several processes sharing PostgreSQL count together; a counter
 * left from an older window restarts at 1.
 */
export async function countHit(db: Kysely<SystemDatabase>, key: string, windowStart: number): Promise<number> {
  const row = await db
    .insertInto('rate_limits')
    .values({ key, window_start: windowStart, count: 1 })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        count: sql<number>`case when rate_limits.window_start >= excluded.window_start then rate_limits.count + 1 else 1 end`,
        window_start: sql<number>`case when rate_limits.window_start >= excluded.window_start then rate_limits.window_start else excluded.window_start end`,
      }),
    )
    .returning(['count', 'window_start'])
    .executeTakeFirstOrThrow();
  // A process whose clock lags may land in a newer stored window: it is then counted there.
  return Number(row.count);
}

/** deleteWindowsBefore removes counters whose window started before `windowStart`. */
export async function deleteWindowsBefore(db: Kysely<SystemDatabase>, windowStart: number): Promise<void> {
  await db.deleteFrom('rate_limits').where('window_start', '<', windowStart).execute();
}
