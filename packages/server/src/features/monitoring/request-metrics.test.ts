import { describe, expect, it } from 'vitest';
import type { AnsweredRequest } from '../logs/log-events.js';
import { bucketOf, createRequestMetrics, familyOf, percentileOf, rowsOf } from './request-metrics.js';

// The in-memory counts: which requests count, under which minute, account, family and route, and the latency
// histogram's percentiles.

const answered = (over: Partial<AnsweredRequest> = {}): AnsweredRequest => ({
  method: 'GET',
  url: '/api/table/items/7?select=*',
  status: 200,
  durationMs: 3,
  bytes: 100,
  principal: { kind: 'user', accountId: 'acc-1', sessionId: null, via: 'bearer' },
  requestId: 'r',
  route: '/api/table/:name/:id',
  params: { name: 'items', id: '7' },
  early: false,
  ...over,
});

describe('request metrics', () => {
  it('tells the API family by path, and skips what is not an API', () => {
    expect(familyOf('/rest/v1/items?select=*')).toBe('rest');
    expect(familyOf('/rest/v1')).toBe('rest');
    expect(familyOf('/rest/v10/items')).toBeNull();
    expect(familyOf('/auth/v1/token')).toBe('auth');
    expect(familyOf('/storage/v1/object/b/x')).toBe('storage');
    expect(familyOf('/functions/v1/hello')).toBe('functions');
    expect(familyOf('/api/tables')).toBe('api');
    expect(familyOf('/api/health')).toBeNull();
    expect(familyOf('/api/health?x=1')).toBeNull();
    expect(familyOf('/api/health/database')).toBe('api');
    expect(familyOf('/metrics')).toBeNull();
    expect(familyOf('/tables/items')).toBeNull();
  });

  it('counts by minute, account and route (every id one route), errors by class', () => {
    let now = Date.UTC(2026, 0, 1, 10, 0, 30);
    const metrics = createRequestMetrics(() => now);
    metrics.observe(answered());
    metrics.observe(answered({ params: { name: 'items', id: '8' }, status: 404, durationMs: 40 }));
    metrics.observe(answered({ status: 503, durationMs: 700, bytes: 5 }));
    metrics.observe(answered({ params: { name: 'orders', id: '1' } }));
    metrics.observe(answered({ principal: { kind: 'anonymous' } }));
    metrics.observe(answered({ method: 'OPTIONS' }));
    metrics.observe(answered({ url: '/index.html', route: undefined }));
    now += 60_000;
    metrics.observe(answered({ route: undefined, params: undefined, url: '/api/nothing/here', status: 404 }));
    const rows = metrics.take();
    expect(metrics.size).toBe(0);
    const items = rows.find((r) => r.route === 'GET /api/table/items/:id' && r.accountId === 'acc-1');
    expect(items).toMatchObject({ requests: 3, errors4xx: 1, errors5xx: 1, bytes: 205, maxMs: 700, family: 'api' });
    expect(items?.totalMs).toBeCloseTo(743);
    expect(items?.histogram[bucketOf(3)]).toBe(1);
    expect(rows.find((r) => r.route === 'GET /api/table/orders/:id')?.requests).toBe(1);
    expect(rows.find((r) => r.accountId === '')?.requests).toBe(1);
    const unmatched = rows.find((r) => r.route === 'GET (unmatched)');
    expect(unmatched).toMatchObject({ at: Date.UTC(2026, 0, 1, 10, 1), errors4xx: 1 });
    expect(rows).toHaveLength(4);
  });

  it('adds minutes into their hours in the same batch', () => {
    let now = Date.UTC(2026, 0, 1, 10, 58, 0);
    const metrics = createRequestMetrics(() => now);
    metrics.observe(answered());
    now += 60_000;
    metrics.observe(answered({ durationMs: 9 }));
    now += 60_000;
    metrics.observe(answered());
    const rows = rowsOf(metrics.take());
    const minutes = rows.filter((r) => r.bucket === '1m');
    const hours = rows.filter((r) => r.bucket === '1h');
    expect(minutes).toHaveLength(3);
    expect(hours.map((h) => [new Date(h.at).toISOString(), h.requests])).toEqual([
      ['2026-01-01T10:00:00.000Z', 2],
      ['2026-01-01T11:00:00.000Z', 1],
    ]);
    expect(hours[0]?.maxMs).toBe(9);
  });

  it('estimates percentiles from the histogram, never above the maximum', () => {
    const histogram = new Array(14).fill(0);
    expect(percentileOf(histogram, 0.5, 0)).toBeNull();
    // 90 requests of 1-2 ms, 10 of 100-250 ms.
    histogram[1] = 90;
    histogram[7] = 10;
    expect(percentileOf(histogram, 0.5, 200)).toBeGreaterThan(1);
    expect(percentileOf(histogram, 0.5, 200)).toBeLessThanOrEqual(2);
    expect(percentileOf(histogram, 0.95, 200)).toBeGreaterThan(100);
    expect(percentileOf(histogram, 0.99, 120)).toBeLessThanOrEqual(120);
    const slow = new Array(14).fill(0);
    slow[13] = 1;
    expect(percentileOf(slow, 0.99, 30_000)).toBeGreaterThan(10_000);
  });
});
