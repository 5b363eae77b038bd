import type { Kysely } from 'kysely';
import type { SystemDatabase } from '../../db/schema.js';
import { addHits, deleteWindowsBefore, takeTurn, uncountHit } from './rate-limit.store.js';

// Counters older than the longest window are useless; they are swept at most once a minute per process.
const MAX_WINDOW_SECONDS = 3600;
const SWEEP_EVERY_MS = 60_000;

/** RateLimit is a number of hits allowed per fixed window. */
export interface RateLimit {
  limit: number;
  /** Window length in seconds (at most one hour). */
  windowSeconds: number;
}

/** RateLimitResult says whether a hit was allowed and, if not, when the window ends. */
export interface RateLimitResult {
  allowed: boolean;
  count: number;
  retryAfterSeconds: number;
}

/** RateLimiter counts hits per key in fixed windows stored in the database (shared by every process). */
export interface RateLimiter {
  /** hit counts one attempt against `key` and tells whether it stays within the limit. */
  hit(key: string, rule: RateLimit): Promise<RateLimitResult>;
  /**
   * undo takes back a hit that turned out not to count (a sign-in with the right password), within the same
   * window; a hit of an earlier window is gone already.
   */
  undo(key: string, rule: Pick<RateLimit, 'windowSeconds'>): Promise<void>;
  /**
   * spaced allows one hit of `key` per `seconds` counted from the last allowed one (not per clock window: two hits a
   * second apart across a window's edge are still one too many).
   */
  spaced(key: string, seconds: number): Promise<RateLimitResult>;
}

/** createRateLimiter builds a limiter over the rate_limits table; `now` is injectable for tests. */
export function createRateLimiter(db: Kysely<SystemDatabase>, options: { now?: () => Date } = {}): RateLimiter {
  const now = options.now ?? (() => new Date());
  let lastSweep = 0;
  const windowStartOf = (nowSeconds: number, windowSeconds: number) => nowSeconds - (nowSeconds % windowSeconds);

  return {
    async hit(key, { limit, windowSeconds }) {
      if (windowSeconds > MAX_WINDOW_SECONDS) throw new Error(`rate-limit windows are at most ${MAX_WINDOW_SECONDS}s`);
      const nowMs = now().getTime();
      const nowSeconds = Math.floor(nowMs / 1000);
      const windowStart = windowStartOf(nowSeconds, windowSeconds);
      if (nowMs - lastSweep > SWEEP_EVERY_MS) {
        lastSweep = nowMs;
        await deleteWindowsBefore(db, nowSeconds - MAX_WINDOW_SECONDS);
      }
      // The key carries the window length, so rules with different windows never share a counter.
      // A process whose clock lags may land in a newer stored window: it is then counted there.
      const { count } = await addHits(db, `${key}@${windowSeconds}`, windowStart, 1);
      return {
        allowed: count <= limit,
        count,
        retryAfterSeconds: Math.max(1, windowStart + windowSeconds - nowSeconds),
      };
    },
    async undo(key, { windowSeconds }) {
      const nowSeconds = Math.floor(now().getTime() / 1000);
      await uncountHit(db, `${key}@${windowSeconds}`, windowStartOf(nowSeconds, windowSeconds));
    },
    async spaced(key, seconds) {
      if (seconds > MAX_WINDOW_SECONDS) throw new Error(`rate-limit spacings are at most ${MAX_WINDOW_SECONDS}s`);
      const nowSeconds = Math.floor(now().getTime() / 1000);
      const last = await takeTurn(db, `${key}@spaced${seconds}`, nowSeconds, seconds);
      if (last === null) return { allowed: true, count: 1, retryAfterSeconds: 0 };
      return { allowed: false, count: 2, retryAfterSeconds: Math.max(1, last + seconds - nowSeconds) };
    },
  };
}
