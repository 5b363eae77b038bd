import type { ApiFamily } from '@basalt/shared';
import { type AnsweredRequest, routeWithParams } from '../logs/log-events.js';

// Every answered API request is added, in memory, to its minute's counts for its account, family and route; the
// writer (metrics-writer.ts) takes the counts every few seconds and adds them to the database, off the requests'
// path. Per request that is a few string joins, a Map lookup and some additions: the bench measures it.

/** LATENCY_BOUNDS_MS are the upper bounds of the latency histogram's buckets; the last bucket holds the rest. */
export const LATENCY_BOUNDS_MS = [1, 2, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10_000] as const;
/** HISTOGRAM_SIZE counts the histogram's buckets (h0 … h13 in request_metrics). */
export const HISTOGRAM_SIZE = LATENCY_BOUNDS_MS.length + 1;

// Beyond this many open counts (accounts × routes × minutes since the last take), new routes are counted as
// "(other)": a flood of distinct paths must not grow the memory without end.
const MAX_OPEN = 20_000;
const OTHER_ROUTE = '(other)';
const UNMATCHED = '(unmatched)';

/** MetricCounts are the counts of one minute (or hour), account, family and route. */
export interface MetricCounts {
  bucket: '1m' | '1h';
  /** The bucket's start, ms since the epoch. */
  at: number;
  accountId: string;
  family: ApiFamily;
  route: string;
  requests: number;
  errors4xx: number;
  errors5xx: number;
  bytes: number;
  totalMs: number;
  maxMs: number;
  histogram: number[];
}

// The APIs' prefixes, by family; the console's pages, the liveness probe and /metrics are not counted.
const PREFIXES: [string, ApiFamily][] = [
  ['/rest/v1', 'rest'],
  ['/auth/v1', 'auth'],
  ['/storage/v1', 'storage'],
  ['/functions/v1', 'functions'],
  ['/realtime/v1', 'realtime'],
  ['/graphql/v1', 'graphql'],
  ['/.well-known/', 'auth'],
  ['/api/', 'api'],
];

/** familyOf tells the API family of a request's URL, or null for what is not an API request. */
export function familyOf(url: string): ApiFamily | null {
  for (const [prefix, family] of PREFIXES) {
    if (!url.startsWith(prefix)) continue;
    const next = url.charCodeAt(prefix.length);
    // "/rest/v1" must be followed by "/", "?" or nothing; "/api/" and "/.well-known/" end with their slash.
    if (prefix.endsWith('/') || Number.isNaN(next) || next === 47 || next === 63) {
      if (family === 'api' && (url === '/api/health' || url.startsWith('/api/health?'))) return null;
      return family;
    }
  }
  return null;
}

/** bucketOf is the histogram bucket of a latency. */
export function bucketOf(ms: number): number {
  let i = 0;
  while (i < LATENCY_BOUNDS_MS.length && ms > (LATENCY_BOUNDS_MS[i] as number)) i++;
  return i;
}

/** RequestMetrics counts answered requests until take() hands the counts over. */
export interface RequestMetrics {
  /** observe counts a request; it returns its family, or null when it is not an API request (not counted). */
  observe(answered: AnsweredRequest): ApiFamily | null;
  /** take returns the minute counts so far and starts afresh. */
  take(): MetricCounts[];
  readonly size: number;
}

/** createRequestMetrics starts empty counts; `now` is the clock (tests move it). */
export function createRequestMetrics(now: () => number = Date.now): RequestMetrics {
  let open = new Map<string, MetricCounts>();
  return {
    observe(answered) {
      if (answered.method === 'OPTIONS') return null;
      const family = familyOf(answered.url);
      if (family === null) return null;
      const time = now();
      const minute = time - (time % 60_000);
      const { principal, route, params } = answered;
      const accountId = 'accountId' in principal ? principal.accountId : '';
      let key = `${minute}\u0000${accountId}\u0000${answered.method}\u0000${route ?? ''}`;
      for (const name in params) if (name !== 'id') key += `\u0000${params[name]}`;
      let counts = open.get(key);
      if (counts === undefined) {
        const label =
          open.size >= MAX_OPEN
            ? OTHER_ROUTE
            : `${answered.method} ${route === undefined ? UNMATCHED : routeWithParams(route, params)}`.slice(0, 300);
        counts = {
          bucket: '1m',
          at: minute,
          accountId,
          family,
          route: label,
          requests: 0,
          errors4xx: 0,
          errors5xx: 0,
          bytes: 0,
          totalMs: 0,
          maxMs: 0,
          histogram: new Array(HISTOGRAM_SIZE).fill(0),
        };
        open.set(key, counts);
      }
      const { status, durationMs } = answered;
      counts.requests++;
      if (status >= 500) counts.errors5xx++;
      else if (status >= 400) counts.errors4xx++;
      counts.bytes += answered.bytes;
      counts.totalMs += durationMs;
      if (durationMs > counts.maxMs) counts.maxMs = durationMs;
      const slot = bucketOf(durationMs);
      counts.histogram[slot] = (counts.histogram[slot] as number) + 1;
      return family;
    },
    take() {
      const taken = [...open.values()];
      open = new Map();
      return taken;
    },
    get size() {
      return open.size;
    },
  };
}

/** addInto adds counts of the same row into another. */
export function addInto(into: MetricCounts, m: MetricCounts): void {
  into.requests += m.requests;
  into.errors4xx += m.errors4xx;
  into.errors5xx += m.errors5xx;
  into.bytes += m.bytes;
  into.totalMs += m.totalMs;
  into.maxMs = Math.max(into.maxMs, m.maxMs);
  for (let i = 0; i < HISTOGRAM_SIZE; i++) (into.histogram[i] as number) += m.histogram[i] as number;
}

/**
 * rowsOf turns minute counts into the rows of a batch: the minutes (two of one route are merged once "(other)"
 * folded them together) and their hours, which are added to in the same batch.
 */
export function rowsOf(minutes: MetricCounts[]): MetricCounts[] {
  const rows = new Map<string, MetricCounts>();
  const merge = (m: MetricCounts, bucket: '1m' | '1h') => {
    const at = bucket === '1m' ? m.at : m.at - (m.at % 3600_000);
    const key = `${bucket}\u0000${at}\u0000${m.accountId}\u0000${m.family}\u0000${m.route}`;
    const into = rows.get(key);
    if (into === undefined) rows.set(key, { ...m, bucket, at, histogram: [...m.histogram] });
    else addInto(into, m);
  };
  for (const m of minutes) {
    merge(m, '1m');
    merge(m, '1h');
  }
  return [...rows.values()];
}

/** percentileOf estimates the q-th quantile (0 … 1) from a histogram, linear within a bucket, capped at maxMs. */
export function percentileOf(histogram: readonly number[], q: number, maxMs: number): number | null {
  let total = 0;
  for (const n of histogram) total += n;
  if (total === 0) return null;
  const rank = q * total;
  let seen = 0;
  for (let i = 0; i < histogram.length; i++) {
    const n = histogram[i] as number;
    if (n > 0 && seen + n >= rank) {
      const lower = i === 0 ? 0 : (LATENCY_BOUNDS_MS[i - 1] as number);
      const upper = i < LATENCY_BOUNDS_MS.length ? (LATENCY_BOUNDS_MS[i] as number) : maxMs;
      const estimate = lower + ((upper - lower) * (rank - seen)) / n;
      return Math.round(Math.min(estimate, maxMs) * 10) / 10;
    }
    seen += n;
  }
  return Math.round(maxMs * 10) / 10;
}
