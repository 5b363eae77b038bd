import { z } from 'zod';

// Monitoring: the requests of the APIs in time buckets (GET /api/metrics) and the database's health over time
// (GET /api/health/database/history). What each number means is in docs/monitoring.md.

/** API_FAMILIES are the APIs whose requests are counted, by the start of their paths. */
export const API_FAMILIES = ['api', 'rest', 'auth', 'storage', 'functions', 'realtime', 'graphql'] as const;
/** ApiFamily is one of them. */
export type ApiFamily = (typeof API_FAMILIES)[number];

/** METRIC_BUCKETS are the bucket sizes kept: a minute (kept 24 hours) and an hour (kept 90 days). */
export const METRIC_BUCKETS = {
  '1m': { ms: 60_000, keptMs: 24 * 3600_000 },
  '1h': { ms: 3600_000, keptMs: 90 * 24 * 3600_000 },
} as const;
/** MetricBucket is a bucket size. */
export type MetricBucket = keyof typeof METRIC_BUCKETS;

const isoTime = (field: string) =>
  z
    .string({ error: `${field} must be a date and time (ISO 8601)` })
    .max(40, `${field} must be a date and time (ISO 8601)`)
    .refine((text) => /^\d{4}-\d\d-\d\d(T[\d:.]+(Z|[+-]\d\d:?\d\d)?)?$/.test(text) && !Number.isNaN(Date.parse(text)), {
      message: `${field} must be a date and time (ISO 8601)`,
    });

/** metricsQuerySchema is the query of GET /api/metrics: a time range, a bucket size, and optionally one family or route. */
export const metricsQuerySchema = z.object({
  from: isoTime('from').optional(),
  to: isoTime('to').optional(),
  bucket: z.enum(['1m', '1h'], { error: "bucket must be '1m' or '1h'" }).optional(),
  family: z.enum(API_FAMILIES, { error: `family must be one of ${API_FAMILIES.join(', ')}` }).optional(),
  route: z
    .string({ error: 'route must be text' })
    .min(1, 'route must not be empty')
    .max(300, 'route is too long')
    .optional(),
});
/** MetricsQuery is a parsed metrics query. */
export type MetricsQuery = z.infer<typeof metricsQuerySchema>;

/** MetricTotals are what a bucket, a family or a route adds up to. */
export interface MetricTotals {
  requests: number;
  errors4xx: number;
  errors5xx: number;
  /** (errors4xx + errors5xx) / requests, 0 without requests. */
  errorRate: number;
  bytes: number;
  avgMs: number;
  /** Latency percentiles in ms, estimated from the bucket's latency histogram; null without requests. */
  p50Ms: number | null;
  p95Ms: number | null;
  p99Ms: number | null;
  maxMs: number;
}

/** MetricPoint is one time bucket. */
export interface MetricPoint extends MetricTotals {
  at: string;
}

/** RouteMetrics are one route's totals over the range. */
export interface RouteMetrics extends MetricTotals {
  family: ApiFamily;
  /** "GET /api/table/items/:id": the method and the route, its parameters filled in except :id. */
  route: string;
}

/** MetricsReport is the answer of GET /api/metrics. */
export interface MetricsReport {
  from: string;
  to: string;
  bucket: MetricBucket;
  totals: MetricTotals;
  /** Every bucket of the range, oldest first (empty ones with zeros). */
  series: MetricPoint[];
  families: (MetricTotals & { family: ApiFamily })[];
  /** The busiest routes, most requests first. */
  routes: RouteMetrics[];
  /** The slowest routes by p95. */
  slowest: RouteMetrics[];
  /** The routes with the most errors. */
  topErrors: RouteMetrics[];
}

/** HEALTH_STATUSES rank a health snapshot by thresholds (docs/monitoring.md). */
export const HEALTH_STATUSES = ['HEALTHY', 'WARNING', 'CRITICAL'] as const;
/** HealthStatus is one of them. */
export type HealthStatus = (typeof HEALTH_STATUSES)[number];

/** HealthSnapshot is the database's health at one minute. */
export interface HealthSnapshot {
  at: string;
  status: HealthStatus;
  /** Why the status is not HEALTHY, or null. */
  reason: string | null;
  /** A round trip to the database, ms; null when it did not answer. */
  latencyMs: number | null;
  databaseBytes: number | null;
  diskFreeBytes: number | null;
  diskTotalBytes: number | null;
  /** The process's CPU use since the previous snapshot, percent of one core. */
  cpuPercent: number;
  rssBytes: number;
  heapUsedBytes: number;
  activeConnections: number;
  maxConnections: number;
}

/** healthHistoryQuerySchema is the query of GET /api/health/database/history (at most 30 days back). */
export const healthHistoryQuerySchema = z.object({
  from: isoTime('from').optional(),
  to: isoTime('to').optional(),
});

/** HealthHistory is the answer of GET /api/health/database/history. */
export interface HealthHistory {
  from: string;
  to: string;
  snapshots: HealthSnapshot[];
}
