import { type Kysely, sql } from 'kysely';
import type { SystemDatabase } from '../../db/schema.js';

// The SQL of the shared counters in `rate_limits`: one row per key, counting hits in the window it names.

// Keys carry what a client sent (an email address, say), and PostgreSQL's text cannot hold a NUL character.
// It is written as `\0`, with backslashes doubled first, so that no two keys become one.
const storedKey = (key: string) => key.replaceAll('\\', '\\\\').replaceAll('\0', '\\0');

/** WindowCount is a counter's window (its start) and the hits counted in it. */
export interface WindowCount {
  windowStart: number;
  count: number;
}

/**
 * addHits adds `hits` to the counter `key` for the window starting at `windowStart` and returns the counter as
 * stored: one atomic upsert, so several processes sharing PostgreSQL count together. A counter left from an older
 * window restarts at `hits`; one already in a later window (a process whose clock lags) is counted there.
 */
export async function addHits(
  db: Kysely<SystemDatabase>,
  key: string,
  windowStart: number,
  hits: number,
): Promise<WindowCount> {
  const row = await db
    .insertInto('rate_limits')
    .values({ key: storedKey(key), window_start: windowStart, count: hits })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        count: sql<number>`case when rate_limits.window_start >= excluded.window_start then rate_limits.count + excluded.count else excluded.count end`,
        window_start: sql<number>`case when rate_limits.window_start >= excluded.window_start then rate_limits.window_start else excluded.window_start end`,
      }),
    )
    .returning(['count', 'window_start'])
    .executeTakeFirstOrThrow();
  return { windowStart: Number(row.window_start), count: Number(row.count) };
}

/**
 * takeTurn stores `at` (seconds) as the last time of `key` if the one stored is at least `spacing` seconds earlier
 * (or there is none) and answers null; otherwise it changes nothing and answers the time stored. One atomic upsert:
 * of several processes asking at once, one gets the turn.
 */
export async function takeTurn(
  db: Kysely<SystemDatabase>,
  key: string,
  at: number,
  spacing: number,
): Promise<number | null> {
  const taken = await db
    .insertInto('rate_limits')
    .values({ key: storedKey(key), window_start: at, count: 1 })
    .onConflict((oc) =>
      oc
        .column('key')
        .doUpdateSet({ window_start: at, count: 1 })
        .where('rate_limits.window_start', '<=', at - spacing),
    )
    .returning('window_start')
    .executeTakeFirst();
  if (taken) return null;
  const stored = await db
    .selectFrom('rate_limits')
    .select('window_start')
    .where('key', '=', storedKey(key))
    .executeTakeFirst();
  return stored ? Number(stored.window_start) : at;
}

/** uncountHit takes back one hit of the counter `key` in the window starting at `windowStart`, never below 0. */
export async function uncountHit(db: Kysely<SystemDatabase>, key: string, windowStart: number): Promise<void> {
  await db
    .updateTable('rate_limits')
    .set({ count: sql<number>`count - 1` })
    .where('key', '=', storedKey(key))
    .where('window_start', '=', windowStart)
    .where('count', '>', 0)
    .execute();
}

/** deleteWindowsBefore removes counters whose window started before `windowStart`. */
export async function deleteWindowsBefore(db: Kysely<SystemDatabase>, windowStart: number): Promise<void> {
  await db.deleteFrom('rate_limits').where('window_start', '<', windowStart).execute();
}
