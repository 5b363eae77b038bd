import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpEndUser, startDeveloper } from '../../testing/apps.fixtures.js';
import { type SignedInTestUser, signUpUser, startAuthServer, tamper, users } from '../../testing/auth.fixtures.js';
import { type TestServer, testDialects } from '../../testing/test-server.js';

// GET /api/metrics, /api/metrics/instance, /api/health/database/history and /metrics on a real server, counted
// from real requests. The first account of an instance administers it.

const TOKEN = 'prometheus-scrape-token-0123456789';
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const minuteAgo = () => new Date(Date.now() - 60 * 60_000).toISOString();

describe.each(testDialects)('monitoring on %s', (dialect) => {
  let server: TestServer;
  let admin: SignedInTestUser;
  let alice: SignedInTestUser;
  let bob: SignedInTestUser;
  let endUserHeaders: Record<string, string>;

  const get = (path: string, headers: Record<string, string>) => server.request('GET', path, { headers });

  beforeAll(async () => {
    server = await startAuthServer(dialect, { metricsToken: TOKEN });
    admin = await signUpUser(server, users.carol);
    alice = await signUpUser(server, users.alice);
    const developer = await startDeveloper(server, users.bob);
    bob = {
      ...users.bob,
      id: developer.id,
      accessToken: developer.accessToken,
      refreshToken: '',
      headers: developer.headers,
    };
    endUserHeaders = (await signUpEndUser(server, developer, 'reader@example.test')).headers;
    // alice: 7 listings, 3 refused (400), 2 of an unknown table (404).
    for (let i = 0; i < 7; i++) await get('/api/tables', alice.headers);
    for (let i = 0; i < 3; i++) await get('/api/activity?page=0', alice.headers);
    for (let i = 0; i < 2; i++) await get('/api/table/nothing-here/records', alice.headers);
    // bob: 4 listings.
    for (let i = 0; i < 4; i++) await get('/api/tables', bob.headers);
    await server.app.basalt.monitoring.flush();
  }, 60_000);
  afterAll(() => server.close());

  const routeOf = (body: { routes: { route: string; requests: number }[] }, route: string) =>
    body.routes.find((r) => r.route === route);

  it("answers an account's own requests, errors and latency, by family and route", async () => {
    const res = await get(`/api/metrics?from=${minuteAgo()}`, alice.headers);
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = res.body;
    expect(body.bucket).toBe('1m');
    expect(routeOf(body, 'GET /api/tables')).toMatchObject({ family: 'api', requests: 7, errors4xx: 0, errors5xx: 0 });
    expect(routeOf(body, 'GET /api/activity')).toMatchObject({ requests: 3, errors4xx: 3, errorRate: 1 });
    const tables = routeOf(body, 'GET /api/tables') as unknown as Record<string, number>;
    expect(tables.p50Ms).toBeGreaterThan(0);
    expect(tables.p95Ms).toBeGreaterThanOrEqual(tables.p50Ms as number);
    expect(tables.p99Ms).toBeLessThanOrEqual(tables.maxMs as number);
    expect(tables.bytes).toBeGreaterThan(0);
    // The series adds up to the totals, one point a minute.
    const sum = body.series.reduce((n: number, p: { requests: number }) => n + p.requests, 0);
    expect(sum).toBe(body.totals.requests);
    expect(body.series.length).toBeGreaterThanOrEqual(60);
    expect(body.topErrors.map((r: { route: string }) => r.route)).toContain('GET /api/activity');
    expect(body.families[0]).toMatchObject({ family: 'api' });
    // Nothing of bob's.
    expect(body.totals.requests).toBeLessThan(7 + 3 + 2 + 10);
  });

  it('filters by family and route, and answers hours for longer ranges', async () => {
    const route = encodeURIComponent('GET /api/tables');
    const one = await get(`/api/metrics?from=${minuteAgo()}&route=${route}`, bob.headers);
    expect(one.status, one.text).toBe(200);
    expect(one.body.totals.requests).toBe(4);
    expect(one.body.routes).toHaveLength(1);
    const rest = await get(`/api/metrics?from=${minuteAgo()}&family=rest`, bob.headers);
    expect(rest.body.totals.requests).toBe(0);
    const since = new Date(Date.now() - 7 * 86_400_000).toISOString();
    const week = await get(`/api/metrics?from=${since}&route=${route}`, bob.headers);
    expect(week.status).toBe(200);
    expect(week.body.bucket).toBe('1h');
    expect(week.body.totals.requests).toBe(4);
    expect(week.body.series.length).toBeGreaterThanOrEqual(7 * 24);
  });

  it("answers the instance's requests to its administrators only", async () => {
    const res = await get(`/api/metrics/instance?from=${minuteAgo()}`, admin.headers);
    expect(res.status, res.text).toBe(200);
    expect(routeOf(res.body, 'GET /api/tables')?.requests).toBeGreaterThanOrEqual(11);
    const refused = await get('/api/metrics/instance', alice.headers);
    expect(refused.status).toBe(403);
  });

  it('refuses bad ranges and filters with 400, naming the field', async () => {
    const cases: [string, string][] = [
      ['from=yesterday', 'from'],
      ['to=2026-13-45T99:00:00Z', 'to'],
      [`from=${new Date().toISOString()}&to=${minuteAgo()}`, 'from'],
      ['bucket=5m', 'bucket'],
      ['bucket=1m&from=2020-01-01T00:00:00Z&to=2020-01-03T00:00:00Z', 'from'],
      ['from=2020-01-01T00:00:00Z&to=2021-01-01T00:00:00Z', 'from'],
      ['family=ftp', 'family'],
      [`route=${'x'.repeat(301)}`, 'route'],
      ['route=', 'route'],
      ['family=api&family=rest', 'family'],
      [`from=${'9'.repeat(100)}`, 'from'],
    ];
    for (const [query, field] of cases) {
      const res = await get(`/api/metrics?${query}`, alice.headers);
      expect(res.status, `${query}: ${res.text}`).toBe(400);
      expect(Object.keys(res.body.validationErrors ?? {}), query).toContain(field);
    }
    // A NUL is refused before any route reads it.
    expect((await get('/api/metrics?from=2026-01-01%00', alice.headers)).status).toBe(400);
    const history = await get(
      '/api/health/database/history?from=2020-01-01T00:00:00Z&to=2021-01-01T00:00:00Z',
      alice.headers,
    );
    expect(history.status).toBe(400);
  });

  it('refuses missing, wrong and end users’ credentials', async () => {
    for (const path of ['/api/metrics', '/api/metrics/instance', '/api/health/database/history']) {
      expect((await get(path, {})).status, path).toBe(401);
      expect((await get(path, bearer(tamper(alice.accessToken)))).status, path).toBe(401);
      const asEndUser = await get(path, endUserHeaders);
      expect([401, 403], path).toContain(asEndUser.status);
    }
  });

  it('keeps a health snapshot a minute and reads them back', async () => {
    const recorder = server.app.basalt.healthHistory;
    const at = Date.now();
    const first = await recorder.snapshot(at);
    // A second snapshot of the same minute (another node's) is not stored.
    await recorder.snapshot(at + 1);
    expect(first.status).toBe('HEALTHY');
    expect(first.latencyMs).not.toBeNull();
    const res = await get('/api/health/database/history', alice.headers);
    expect(res.status, res.text).toBe(200);
    const minute = new Date(at - (at % 60_000)).toISOString();
    const same = res.body.snapshots.filter((s: { at: string }) => s.at === minute);
    expect(same).toHaveLength(1);
    expect(same[0]).toMatchObject({ status: 'HEALTHY', rssBytes: expect.any(Number), cpuPercent: expect.any(Number) });
    if (dialect === 'sqlite') expect(same[0].databaseBytes).toBeGreaterThan(0);
  });

  it('serves Prometheus text with the bearer token only', async () => {
    expect((await get('/metrics', {})).status).toBe(401);
    expect((await get('/metrics', bearer('wrong-token-wrong-token'))).status).toBe(401);
    expect((await get('/metrics', bearer(alice.accessToken))).status).toBe(401);
    const missing = await get('/metrics', {});
    expect(missing.headers.get('www-authenticate')).toContain('Bearer');
    const res = await get('/metrics', bearer(TOKEN));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    expect(res.text).toMatch(/basalt_http_requests_total\{family="api",status="2xx"\} \d+/);
    expect(res.text).toMatch(/basalt_http_request_duration_seconds_bucket\{le="0.001",family="api"\}/);
    expect(res.text).toContain('basalt_nodejs_eventloop_lag_seconds');
    expect(res.text).toContain('basalt_nodejs_heap_size_used_bytes');
    expect(res.text).toMatch(/basalt_db_connections\{state="max"\} \d+/);
    expect(res.text).not.toContain(TOKEN);
  });
});

describe('the Prometheus endpoint without METRICS_TOKEN', () => {
  it('does not exist', async () => {
    const server = await startAuthServer('sqlite');
    try {
      const res = await server.request('GET', '/metrics', { headers: bearer('anything-anything-anything') });
      expect(res.status).toBe(404);
    } finally {
      await server.close();
    }
  });
});
