import type { Kysely } from 'kysely';
import type { SystemDatabase } from '../../db/schema.js';
import { addHits } from '../../lib/rate-limit/rate-limit.store.js';

// The public record API's rate limit: `limit` requests per key per fixed minute window.
//
// Counters must be shared by every process on one database (DESIGN.md principle 2), but a database write per
// request would cost more than the request itself. So each process counts locally and, every FLUSH_EVERY_MS,
// adds its new hits to the key's `rate_limits` row in one atomic upsert that returns the total of every
// process. A request is decided at once, from memory: allowed while (last known total + hits not yet
// flushed) < limit. Refused requests are not counted.
//
// The trade-off: hits another process made since this one last flushed are unknown here, so N busy processes
// may together let through up to (N − 1) × one flush interval of traffic above the limit; one process is
// exact. A fixed window also allows a burst of up to 2 × limit around a window's edge. Both are fine for a
// limit meant to stop runaway clients, not to bill.

const WINDOW_SECONDS = 60;
const FLUSH_EVERY_MS = 1_000;
// Keys idle for a window are forgotten; beyond this many live keys, the idle ones are dropped first.
const MAX_KEYS = 100_000;

interface Counter {
  windowStart: number;
  /** Hits counted here and not yet added to the shared row. */
  pending: number;
  /** The shared row's total when last flushed (this process's flushed hits included). */
  shared: number;
}

/** KeyRateLimiter decides, without waiting on the database, whether a key may make one more request. */
export interface KeyRateLimiter {
  /** take counts one request of `key`: it returns 0 when allowed, else the seconds until the window ends. */
  take(key: string): number;
  /** flush adds the pending hits to the shared counters (also run by a timer). */
  flush(): Promise<void>;
  /** close stops the timer and flushes what is pending. */
  close(): Promise<void>;
}

/** KeyRateLimiterOptions configure a limiter; `now` (ms) is injectable for tests. */
export interface KeyRateLimiterOptions {
  limit: number;
  now?: () => number;
  /** Flush on a timer (default); tests flush by hand. */
  autoFlush?: boolean;
  onFlushError?: (error: unknown) => void;
}

/** createKeyRateLimiter makes a limiter over the `rate_limits` table of one database. */
export function createKeyRateLimiter(db: Kysely<SystemDatabase>, options: KeyRateLimiterOptions): KeyRateLimiter {
  const { limit } = options;
  const now = options.now ?? Date.now;
  const counters = new Map<string, Counter>();
  let flushing: Promise<void> | null = null;

  const windowOf = (ms: number) => {
    const seconds = Math.floor(ms / 1000);
    return seconds - (seconds % WINDOW_SECONDS);
  };

  async function flushOnce(): Promise<void> {
    const current = windowOf(now());
    for (const [key, counter] of counters) {
      if (counter.windowStart !== current) {
        // A finished window's unflushed hits decide nothing any more.
        counters.delete(key);
        continue;
      }
      if (counter.pending === 0) continue;
      const hits = counter.pending;
      counter.pending = 0;
      try {
        const stored = await addHits(db, `api:${key}@${WINDOW_SECONDS}`, counter.windowStart, hits);
        // A row already in a later window (another process's clock runs ahead) counts there: nothing known.
        const total = stored.windowStart === counter.windowStart ? stored.count : 0;
        if (counters.get(key) === counter) counter.shared = Math.max(counter.shared + hits, total);
      } catch (error) {
        counter.pending += hits;
        options.onFlushError?.(error);
        return;
      }
    }
  }

  const flush = () => {
    flushing ??= flushOnce().finally(() => {
      flushing = null;
    });
    return flushing;
  };

  const timer = options.autoFlush === false ? null : setInterval(() => void flush(), FLUSH_EVERY_MS);
  timer?.unref();

  return {
    take(key) {
      const at = now();
      const windowStart = windowOf(at);
      let counter = counters.get(key);
      if (!counter || counter.windowStart !== windowStart) {
        if (!counter && counters.size >= MAX_KEYS) {
          const oldest = counters.keys().next().value;
          if (oldest !== undefined) counters.delete(oldest);
        }
        counter = { windowStart, pending: 0, shared: 0 };
        counters.set(key, counter);
      }
      if (counter.shared + counter.pending >= limit) {
        return Math.max(1, windowStart + WINDOW_SECONDS - Math.floor(at / 1000));
      }
      counter.pending++;
      return 0;
    },
    flush,
    async close() {
      if (timer) clearInterval(timer);
      await flush();
    },
  };
}
