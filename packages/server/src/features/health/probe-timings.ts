// A rolling window of timed probe queries, for the health card's avgQueryTime and slowQueries.
//
// Basalt does not time every query: the record APIs' hot path runs without any wrapper, and a timer on each
// query would cost more than some of the queries. Instead the health feature times small probe queries of its
// own (a round trip, a read of a system table, the version), every SAMPLE_EVERY_MS and at each health check,
// and keeps the last WINDOW_SIZE timings of the last WINDOW_MS. A probe waits behind whatever the database is
// doing (SQLite's one connection, PostgreSQL's pool and locks), so a busy or slow database shows in them.

/** PROBE_WINDOW bounds the window and defines a slow probe. */
export const PROBE_WINDOW = { size: 500, windowMs: 15 * 60_000, slowMs: 100, sampleEveryMs: 30_000 };

/** ProbeSummary is the window at a moment. */
export interface ProbeSummary {
  /** Probes in the window. */
  count: number;
  /** Their mean time in milliseconds (0 when there is none), to 0.01 ms. */
  avgMs: number;
  /** How many took longer than PROBE_WINDOW.slowMs. */
  slow: number;
}

/** ProbeTimings records probe durations and sums up the recent ones. */
export interface ProbeTimings {
  record(durationMs: number, at?: number): void;
  summary(now?: number): ProbeSummary;
}

/** createProbeTimings makes an empty window (a ring of the last PROBE_WINDOW.size timings). */
export function createProbeTimings(window = PROBE_WINDOW): ProbeTimings {
  const durations = new Float64Array(window.size);
  const times = new Float64Array(window.size);
  let next = 0;
  let filled = 0;
  return {
    record(durationMs, at = Date.now()) {
      durations[next] = durationMs;
      times[next] = at;
      next = (next + 1) % window.size;
      filled = Math.min(filled + 1, window.size);
    },
    summary(now = Date.now()) {
      let count = 0;
      let total = 0;
      let slow = 0;
      for (let i = 0; i < filled; i++) {
        if (now - (times[i] ?? 0) > window.windowMs) continue;
        const duration = durations[i] ?? 0;
        count++;
        total += duration;
        if (duration > window.slowMs) slow++;
      }
      return { count, avgMs: count ? Math.round((total / count) * 100) / 100 : 0, slow };
    },
  };
}
