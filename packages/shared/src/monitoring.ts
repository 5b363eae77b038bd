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

const metricTotalsSchema = z.object({
  requests: z.number(),
  errors4xx: z.number(),
  errors5xx: z.number(),
  /** (errors4xx + errors5xx) / requests, 0 without requests. */
  errorRate: z.number(),
  bytes: z.number(),
  avgMs: z.number(),
  /** Latency percentiles in ms, estimated from the latency histogram; null without requests. */
  p50Ms: z.number().nullable(),
  p95Ms: z.number().nullable(),
  p99Ms: z.number().nullable(),
  maxMs: z.number(),
});
/** MetricTotals are what a bucket, a family or a route adds up to. */
export type MetricTotals = z.infer<typeof metricTotalsSchema>;

const metricPointSchema = metricTotalsSchema.extend({ at: z.string() });
/** MetricPoint is one time bucket. */
export type MetricPoint = z.infer<typeof metricPointSchema>;

const routeMetricsSchema = metricTotalsSchema.extend({
  family: z.enum(API_FAMILIES),
  /** "GET /api/table/items/:id": the method and the route, its parameters filled in except :id. */
  route: z.string(),
});
/** RouteMetrics are one route's totals over the range. */
export type RouteMetrics = z.infer<typeof routeMetricsSchema>;

/** metricsReportSchema is the answer of GET /api/metrics. */
export const metricsReportSchema = z.object({
  from: z.string(),
  to: z.string(),
  bucket: z.enum(['1m', '1h']),
  totals: metricTotalsSchema,
  /** Every bucket of the range, oldest first (empty ones with zeros). */
  series: z.array(metricPointSchema),
  families: z.array(metricTotalsSchema.extend({ family: z.enum(API_FAMILIES) })),
  /** The busiest routes, most requests first. */
  routes: z.array(routeMetricsSchema),
  /** The slowest routes by p95. */
  slowest: z.array(routeMetricsSchema),
  /** The routes with the most errors. */
  topErrors: z.array(routeMetricsSchema),
});
/** MetricsReport is the answer of GET /api/metrics. */
export type MetricsReport = z.infer<typeof metricsReportSchema>;

/** HEALTH_STATUSES rank a health snapshot by thresholds (docs/monitoring.md). */
export const HEALTH_STATUSES = ['HEALTHY', 'WARNING', 'CRITICAL'] as const;
/** HealthStatus is one of them. */
export type HealthStatus = (typeof HEALTH_STATUSES)[number];

const healthSnapshotSchema = z.object({
  at: z.string(),
  status: z.enum(HEALTH_STATUSES),
  /** Why the status is not HEALTHY, or null. */
  reason: z.string().nullable(),
  /** A round trip to the database, ms; null when it did not answer. */
  latencyMs: z.number().nullable(),
  databaseBytes: z.number().nullable(),
  diskFreeBytes: z.number().nullable(),
  diskTotalBytes: z.number().nullable(),
  /** The process's CPU use since the previous snapshot, percent of one core. */
  cpuPercent: z.number(),
  rssBytes: z.number(),
  heapUsedBytes: z.number(),
  activeConnections: z.number(),
  maxConnections: z.number(),
});
/** HealthSnapshot is the database's health at one minute. */
export type HealthSnapshot = z.infer<typeof healthSnapshotSchema>;

/** healthHistoryQuerySchema is the query of GET /api/health/database/history (at most 30 days back). */
export const healthHistoryQuerySchema = z.object({
  from: isoTime('from').optional(),
  to: isoTime('to').optional(),
});

/** healthHistorySchema is the answer of GET /api/health/database/history. */
export const healthHistorySchema = z.object({
  from: z.string(),
  to: z.string(),
  snapshots: z.array(healthSnapshotSchema),
});
/** HealthHistory is the answer of GET /api/health/database/history. */
export type HealthHistory = z.infer<typeof healthHistorySchema>;
