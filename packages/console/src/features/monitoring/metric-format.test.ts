import type { HealthSnapshot, MetricPoint } from '@basalt/shared/monitoring';
import { describe, expect, it } from 'vitest';
import { formatMs, formatRate, logSearchOf, seriesRows, statusBands } from './metric-format';

// How the monitoring screens write figures, split requests for the stacked chart, find a route's log entries and
// turn health snapshots into status bands.

const snapshot = (at: string, status: HealthSnapshot['status']): HealthSnapshot => ({
  at,
  status,
  reason: null,
  latencyMs: 1,
  databaseBytes: null,
  diskFreeBytes: null,
  diskTotalBytes: null,
  cpuPercent: 0,
  rssBytes: 0,
  heapUsedBytes: 0,
  activeConnections: 0,
  maxConnections: 1,
});

describe('monitoring figures', () => {
  it('writes latencies and rates', () => {
    expect(formatMs(null)).toBe('–');
    expect(formatMs(0.44)).toBe('0.4 ms');
    expect(formatMs(12.6)).toBe('13 ms');
    expect(formatMs(1250)).toBe('1.3 s');
    expect(formatRate(0)).toBe('0%');
    expect(formatRate(0.004)).toBe('0.4%');
    expect(formatRate(0.25)).toBe('25%');
  });

  it('searches the log for a route up to its first parameter', () => {
    expect(logSearchOf('GET /api/activity')).toBe('GET /api/activity');
    expect(logSearchOf('GET /api/table/items/:id')).toBe('GET /api/table/items/');
  });

  it('splits requests into answered and errors, and leaves rates of empty buckets out', () => {
    const point = (requests: number, errors4xx: number, errors5xx: number): MetricPoint => ({
      at: '2026-11-29T00:00:00.000Z',
      requests,
      errors4xx,
      errors5xx,
      errorRate: requests ? (errors4xx + errors5xx) / requests : 0,
      bytes: 0,
      avgMs: 0,
      p50Ms: requests ? 1 : null,
      p95Ms: requests ? 2 : null,
      p99Ms: requests ? 3 : null,
      maxMs: 0,
    });
    expect(seriesRows([point(10, 2, 1), point(0, 0, 0)])).toEqual([
      { at: '2026-11-29T00:00:00.000Z', ok: 7, errors: 3, requests: 10, errorRate: 30, p95: 2 },
      { at: '2026-11-29T00:00:00.000Z', ok: 0, errors: 0, requests: 0, errorRate: null, p95: null },
    ]);
  });

  it('bands the stretches of WARNING and CRITICAL', () => {
    const bands = statusBands([
      snapshot('t1', 'HEALTHY'),
      snapshot('t2', 'WARNING'),
      snapshot('t3', 'WARNING'),
      snapshot('t4', 'CRITICAL'),
      snapshot('t5', 'HEALTHY'),
      snapshot('t6', 'WARNING'),
    ]);
    expect(bands).toEqual([
      { from: 't2', to: 't4', tone: 'warning' },
      { from: 't4', to: 't5', tone: 'destructive' },
      { from: 't6', to: 't6', tone: 'warning' },
    ]);
  });
});
