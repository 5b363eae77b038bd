import { type ApiFamily, healthHistorySchema, metricsReportSchema } from '@basalt/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiJson, buildQueryUrl } from '@/lib/api';

// The monitoring calls: GET /api/metrics (the account's requests over a range) and GET /api/health/database/history.
// A range is named (24h, 7d, 30d) in the query key and turned into times when fetched, so the key stays still
// while the times move; each reload asks for the range ending now.

/** METRIC_RANGES are the ranges a chart offers: the last 24 hours, 7 days, 30 days. */
export const METRIC_RANGES = {
  '24h': { ms: 24 * 3600_000, label: '24 h', long: 'the last 24 hours' },
  '7d': { ms: 7 * 24 * 3600_000, label: '7 d', long: 'the last 7 days' },
  '30d': { ms: 30 * 24 * 3600_000, label: '30 d', long: 'the last 30 days' },
} as const;
/** MetricRange names a range. */
export type MetricRange = keyof typeof METRIC_RANGES;

/** isMetricRange tells a range's name from anything else (a URL's parameter). */
export const isMetricRange = (value: unknown): value is MetricRange =>
  typeof value === 'string' && Object.hasOwn(METRIC_RANGES, value);

// Metrics are stored every few seconds; a minute's reload keeps the charts current without hammering.
const RELOAD_MS = 60_000;

/** monitoringKeys are the monitoring queries' keys. */
export const monitoringKeys = {
  all: ['/api/metrics'] as const,
  metrics: (range: MetricRange, family: ApiFamily | null) => ['/api/metrics', { range, family }] as const,
  health: (range: MetricRange) => ['/api/health/database/history', { range }] as const,
};

/** useMetricsQuery loads the account's metrics over a range, of one family or all. */
export function useMetricsQuery(range: MetricRange, family: ApiFamily | null = null) {
  return useQuery({
    queryKey: monitoringKeys.metrics(range, family),
    queryFn: ({ signal }) => {
      const to = Date.now();
      const from = new Date(to - METRIC_RANGES[range].ms).toISOString();
      const url = buildQueryUrl('/api/metrics', { from, to: new Date(to).toISOString(), family });
      return apiJson(metricsReportSchema, 'GET', url, undefined, { signal });
    },
    placeholderData: keepPreviousData,
    refetchInterval: RELOAD_MS,
  });
}

/** useHealthHistoryQuery loads the database's health snapshots over a range (at most 30 days are kept). */
export function useHealthHistoryQuery(range: MetricRange) {
  return useQuery({
    queryKey: monitoringKeys.health(range),
    queryFn: ({ signal }) => {
      const to = Date.now();
      const from = new Date(to - METRIC_RANGES[range].ms).toISOString();
      const url = buildQueryUrl('/api/health/database/history', { from, to: new Date(to).toISOString() });
      return apiJson(healthHistorySchema, 'GET', url, undefined, { signal });
    },
    placeholderData: keepPreviousData,
    refetchInterval: RELOAD_MS,
  });
}
