import {
  type ApiFamily,
  METRIC_BUCKETS,
  type MetricBucket,
  type MetricPoint,
  type MetricsQuery,
  type MetricsReport,
  type MetricTotals,
  type RouteMetrics,
} from '@basalt/shared';
import type { Db } from '../../db/database.js';
import { invalid } from '../../http/errors.js';
import type { Actor } from '../../lib/actor/actor.js';
import { type MetricsFilter, type SummedRow, sumByBucket, sumByRoute } from './metrics.store.js';
import { HISTOGRAM_SIZE, percentileOf } from './request-metrics.js';

// GET /api/metrics: one account's requests (or, for an administrator, the instance's) over a time range, in
// buckets of a minute or an hour, summed by family and route. Percentiles come from the summed histograms, so
// they hold for any number of nodes; counts are exact.

// Without a bucket, ranges up to this long are answered by the minute.
const MINUTES_UP_TO_MS = 6 * 3600_000;
// At most this many points per series: a day by the minute, 90 days by the hour.
const MAX_POINTS = { '1m': 24 * 60, '1h': 90 * 24 } as const;
const TOP_ROUTES = 20;
const TOP_LISTED = 10;

/** MetricsRange is a query's range, aligned on its buckets. */
export interface MetricsRange {
  from: number;
  to: number;
  bucket: MetricBucket;
}

const fieldError = (field: string, message: string) => invalid({ [field]: [message] });

/** rangeOf decides a query's range: the last 24 hours by default, from before to, not more points than kept. */
export function rangeOf(query: MetricsQuery, now = Date.now()): MetricsRange {
  const to = query.to !== undefined ? Date.parse(query.to) : now;
  const from = query.from !== undefined ? Date.parse(query.from) : to - 24 * 3600_000;
  if (from >= to) throw fieldError('from', 'from must be before to');
  const bucket: MetricBucket = query.bucket ?? (to - from <= MINUTES_UP_TO_MS ? '1m' : '1h');
  const size = METRIC_BUCKETS[bucket].ms;
  const start = from - (((from % size) + size) % size);
  const end = Math.ceil(to / size) * size;
  if ((end - start) / size > MAX_POINTS[bucket]) {
    const most = bucket === '1m' ? '24 hours' : '90 days';
    throw fieldError('from', `A range by ${bucket === '1m' ? 'the minute' : 'the hour'} spans at most ${most}`);
  }
  return { from: start, to: end, bucket };
}

function totalsOf(rows: readonly SummedRow[]): MetricTotals {
  const sum: SummedRow = {
    requests: 0,
    errors4xx: 0,
    errors5xx: 0,
    bytes: 0,
    totalMs: 0,
    maxMs: 0,
    histogram: new Array(HISTOGRAM_SIZE).fill(0),
  };
  for (const row of rows) {
    sum.requests += row.requests;
    sum.errors4xx += row.errors4xx;
    sum.errors5xx += row.errors5xx;
    sum.bytes += row.bytes;
    sum.totalMs += row.totalMs;
    sum.maxMs = Math.max(sum.maxMs, row.maxMs);
    for (let i = 0; i < HISTOGRAM_SIZE; i++) (sum.histogram[i] as number) += row.histogram[i] as number;
  }
  const round = (n: number) => Math.round(n * 10) / 10;
  return {
    requests: sum.requests,
    errors4xx: sum.errors4xx,
    errors5xx: sum.errors5xx,
    errorRate: sum.requests === 0 ? 0 : Math.round(((sum.errors4xx + sum.errors5xx) / sum.requests) * 10_000) / 10_000,
    bytes: sum.bytes,
    avgMs: sum.requests === 0 ? 0 : round(sum.totalMs / sum.requests),
    p50Ms: percentileOf(sum.histogram, 0.5, sum.maxMs),
    p95Ms: percentileOf(sum.histogram, 0.95, sum.maxMs),
    p99Ms: percentileOf(sum.histogram, 0.99, sum.maxMs),
    maxMs: round(sum.maxMs),
  };
}

/**
 * metricsReport reads the actor's metrics (instance: every account's, for the instance's administrators; the
 * route says which) over a range.
 */
export async function metricsReport(
  db: Db,
  actor: Actor,
  query: MetricsQuery,
  options: { instance: boolean },
): Promise<MetricsReport> {
  const range = rangeOf(query);
  const filter: MetricsFilter = {
    ...range,
    accountId: options.instance ? null : actor.accountId,
    family: query.family,
    route: query.route,
  };
  const [buckets, routes] = await Promise.all([sumByBucket(db, filter), sumByRoute(db, filter)]);
  const byAt = new Map(buckets.map((b) => [Date.parse(b.at as string), b]));
  const size = METRIC_BUCKETS[range.bucket].ms;
  const series: MetricPoint[] = [];
  for (let at = range.from; at < range.to; at += size) {
    const row = byAt.get(at);
    series.push({ at: new Date(at).toISOString(), ...totalsOf(row ? [row] : []) });
  }
  const routeMetrics: RouteMetrics[] = routes.map((r) => ({
    family: r.family as ApiFamily,
    route: r.route as string,
    ...totalsOf([r]),
  }));
  const families = new Map<string, SummedRow[]>();
  for (const r of routes) families.set(r.family as string, [...(families.get(r.family as string) ?? []), r]);
  return {
    from: new Date(range.from).toISOString(),
    to: new Date(range.to).toISOString(),
    bucket: range.bucket,
    totals: totalsOf(buckets),
    series,
    families: [...families.entries()]
      .map(([family, rows]) => ({ family: family as ApiFamily, ...totalsOf(rows) }))
      .sort((a, b) => b.requests - a.requests),
    routes: [...routeMetrics].sort((a, b) => b.requests - a.requests).slice(0, TOP_ROUTES),
    slowest: [...routeMetrics].sort((a, b) => (b.p95Ms ?? 0) - (a.p95Ms ?? 0)).slice(0, TOP_LISTED),
    topErrors: routeMetrics
      .filter((r) => r.errors4xx + r.errors5xx > 0)
      .sort((a, b) => b.errors4xx + b.errors5xx - (a.errors4xx + a.errors5xx))
      .slice(0, TOP_LISTED),
  };
}
