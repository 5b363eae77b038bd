import type { LogInput } from './log-input.js';

// Successful requests are the bulk of an API's traffic. Stored one entry each, they cost more than the request
// itself (the row, its indexes and its search trigrams: two thirds of a get-by-id's time on SQLite, see README
// "Speed") and bury the entries that matter. So, unless LOG_REQUESTS=all, a request answered below 400 is counted
// into the summary of its account, key, method, route and status, and each summary becomes one entry per window:
// "GET /api/table/items/:id 200 × 1,523 requests (avg 0.4 ms, max 3.1 ms)". A summary of a single request is
// stored as that request's own entry, so a quiet instance logs every request as before, only up to a window
// later. Every answer of 400 and above is stored on its own. Each write is also in the change history, and every
// request, one line each, on stdout.

/** RequestSample is one successful request, as its own entry would have it. */
export interface RequestSample {
  method: string;
  /** What identifies the route: its pattern and its parameters but `:id` (one summary for every id). */
  routeKey: string;
  /** The route with its parameters filled in, except `:id`; asked once per summary. */
  route: () => string;
  status: number;
  accountId: string | null;
  keyId?: number;
  durationMs: number;
  /** early tells that the early runner answered it, not Fastify. */
  early: boolean;
  at: number;
  /** The entry the request would have had on its own; kept for the first request of a summary only. */
  entry: () => LogInput;
}

interface Summary {
  first: RequestSample;
  route: string;
  count: number;
  /** How many of the requests the early runner answered. */
  early: number;
  totalMs: number;
  maxMs: number;
  lastAt: number;
}

/** RequestSummaries counts requests until take() turns the counts into entries. */
export interface RequestSummaries {
  add(sample: RequestSample): void;
  /** size is how many summaries are open. */
  readonly size: number;
  /** take returns an entry for each open summary and starts afresh. */
  take(): LogInput[];
}

const round = (ms: number) => Math.round(ms * 10) / 10;

/** createRequestSummaries starts an empty set of summaries. */
export function createRequestSummaries(): RequestSummaries {
  let open = new Map<string, Summary>();
  return {
    add(sample) {
      const key = `${sample.accountId}\u0000${sample.keyId ?? ''}\u0000${sample.method}\u0000${sample.routeKey}\u0000${sample.status}`;
      const summary = open.get(key);
      if (!summary) {
        open.set(key, {
          first: sample,
          route: sample.route(),
          count: 1,
          early: sample.early ? 1 : 0,
          totalMs: sample.durationMs,
          maxMs: sample.durationMs,
          lastAt: sample.at,
        });
        return;
      }
      summary.count++;
      if (sample.early) summary.early++;
      summary.totalMs += sample.durationMs;
      if (sample.durationMs > summary.maxMs) summary.maxMs = sample.durationMs;
      summary.lastAt = sample.at;
    },
    get size() {
      return open.size;
    },
    take() {
      const entries: LogInput[] = [];
      for (const summary of open.values()) entries.push(entryOf(summary));
      open = new Map();
      return entries;
    },
  };
}

function entryOf({ first, route, count, early, totalMs, maxMs, lastAt }: Summary): LogInput {
  if (count === 1) return first.entry();
  const averageMs = round(totalMs / count);
  return {
    at: lastAt,
    level: 'info',
    source: 'api',
    message: `${first.method} ${route} ${first.status} × ${count.toLocaleString('en-US')} requests (avg ${averageMs} ms, max ${round(maxMs)} ms)`,
    path: route,
    accountId: first.accountId,
    context: {
      method: first.method,
      status: first.status,
      summary: {
        requests: count,
        answeredEarly: early,
        from: new Date(first.at).toISOString(),
        to: new Date(lastAt).toISOString(),
        averageMs,
        maxMs: round(maxMs),
      },
      ...(first.keyId !== undefined ? { keyId: first.keyId } : {}),
    },
  };
}
