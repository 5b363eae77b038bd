import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SignedInTestUser, signUpUser, startAuthServer, users } from '../../testing/auth.fixtures.js';
import { type TestServer, testDialects } from '../../testing/test-server.js';
import { addMetricsBatch } from './metrics.store.js';
import { runMonitoringRetention } from './monitoring-jobs.js';
import { HISTOGRAM_SIZE, type MetricCounts } from './request-metrics.js';

// Batches are added once however often they are retried; minute rows go after 24 hours, hour rows after 90
// days, health snapshots after 30 days; a deleted account's metrics go with it.

const row = (over: Partial<MetricCounts>): MetricCounts => ({
  bucket: '1m',
  at: 0,
  accountId: '',
  family: 'api',
  route: 'GET /api/tables',
  requests: 1,
  errors4xx: 0,
  errors5xx: 0,
  bytes: 10,
  totalMs: 2,
  maxMs: 2,
  histogram: Array.from({ length: HISTOGRAM_SIZE }, (_, i) => (i === 1 ? 1 : 0)),
  ...over,
});

describe.each(testDialects)('monitoring retention on %s', (dialect) => {
  let server: TestServer;
  let alice: SignedInTestUser;
  let bob: SignedInTestUser;

  beforeAll(async () => {
    server = await startAuthServer(dialect);
    alice = await signUpUser(server, users.alice);
    bob = await signUpUser(server, users.bob);
  });
  afterAll(() => server.close());

  it('adds a retried batch once, and a second batch onto the same rows', async () => {
    const { db } = server.app.basalt;
    const at = Date.UTC(2026, 5, 1, 12, 0);
    const batch = [
      row({ at, accountId: alice.id, requests: 3, maxMs: 9 }),
      row({ bucket: '1h', at, accountId: alice.id, requests: 3 }),
    ];
    expect(await addMetricsBatch(db, 'batch-1', batch)).toBe(true);
    expect(await addMetricsBatch(db, 'batch-1', batch)).toBe(false);
    expect(await addMetricsBatch(db, 'batch-2', [row({ at, accountId: alice.id, requests: 2, maxMs: 4 })])).toBe(true);
    const stored = await db.kysely
      .selectFrom('request_metrics')
      .selectAll()
      .where('account_id', '=', alice.id)
      .where('bucket', '=', '1m')
      .executeTakeFirstOrThrow();
    expect(Number(stored.requests)).toBe(5);
    expect(Number(stored.max_ms)).toBe(9);
    expect(Number(stored.h1)).toBe(2);
  });

  it('forgets minutes after a day, hours after 90 days, snapshots after 30 days', async () => {
    const { db, healthHistory } = server.app.basalt;
    const now = Date.UTC(2026, 6, 1, 0, 0);
    const hour = 3600_000;
    await addMetricsBatch(db, 'old-and-new', [
      row({ at: now - 25 * hour }),
      row({ at: now - 23 * hour }),
      row({ bucket: '1h', at: now - 91 * 24 * hour }),
      row({ bucket: '1h', at: now - 89 * 24 * hour }),
    ]);
    await healthHistory.snapshot(now - 31 * 24 * hour);
    await healthHistory.snapshot(now - 29 * 24 * hour);
    await runMonitoringRetention(server.app.basalt, now);
    // Left: the minute of 23 hours ago; the hours of 89 days ago and of 2026-06-01 (the batch above).
    const left = await server.app.basalt.db.kysely
      .selectFrom('request_metrics')
      .select(['bucket', 'at'])
      .where('route', '=', 'GET /api/tables')
      .orderBy('bucket')
      .orderBy('at')
      .execute();
    expect(left).toEqual([
      { bucket: '1h', at: new Date(now - 89 * 24 * hour).toISOString() },
      { bucket: '1h', at: '2026-06-01T12:00:00.000Z' },
      { bucket: '1m', at: new Date(now - 23 * hour).toISOString() },
    ]);
    const snapshots = await db.kysely.selectFrom('database_health').select('at').execute();
    expect(snapshots.map((s) => s.at)).toContain(new Date(now - 29 * 24 * hour).toISOString());
    expect(snapshots.map((s) => s.at)).not.toContain(new Date(now - 31 * 24 * hour).toISOString());
  });

  it('thins a long history to at most 720 points, keeping the worst minute of each stretch', async () => {
    const { db } = server.app.basalt;
    const start = Date.UTC(2026, 2, 1, 0, 0);
    const rows = Array.from({ length: 1000 }, (_, i) => ({
      at: new Date(start + i * 60_000).toISOString(),
      node: 'test',
      status: i === 500 ? 'CRITICAL' : 'HEALTHY',
      reason: i === 500 ? 'The database did not answer' : null,
      latency_ms: i === 500 ? null : 1,
      cpu_percent: 1,
      rss_bytes: 1,
      heap_used_bytes: 1,
      active_connections: 1,
      max_connections: 1,
    }));
    for (let i = 0; i < rows.length; i += 100)
      await db.kysely
        .insertInto('database_health')
        .values(rows.slice(i, i + 100))
        .execute();
    const from = new Date(start).toISOString();
    const to = new Date(start + 1000 * 60_000).toISOString();
    const res = await server.request('GET', `/api/health/database/history?from=${from}&to=${to}`, {
      headers: bob.headers,
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.snapshots.length).toBeLessThanOrEqual(720);
    expect(res.body.snapshots.length).toBeGreaterThan(400);
    const critical = res.body.snapshots.filter((s: { status: string }) => s.status === 'CRITICAL');
    expect(critical).toHaveLength(1);
    expect(critical[0].reason).toBe('The database did not answer');
  });

  it("forgets a deleted account's metrics", async () => {
    const { db } = server.app.basalt;
    const before = await db.kysely
      .selectFrom('request_metrics')
      .select('route')
      .where('account_id', '=', alice.id)
      .execute();
    expect(before.length).toBeGreaterThan(0);
    const res = await server.request('DELETE', '/api/user', { headers: alice.headers, json: { confirm: 'alice' } });
    expect([200, 204], res.text).toContain(res.status);
    await server.app.basalt.monitoring.flush();
    await new Promise((resolve) => setTimeout(resolve, 100));
    const after = await db.kysely
      .selectFrom('request_metrics')
      .select('route')
      .where('account_id', '=', alice.id)
      .execute();
    expect(after).toHaveLength(0);
  });
});
