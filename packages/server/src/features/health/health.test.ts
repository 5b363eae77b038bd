import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userTableName } from '../../db/identifiers.js';
import { type ApiScenario, runScenario, startServer, tamper } from '../../testing/auth.fixtures.js';
import { type SignedInAccount, signIn } from '../../testing/tables.fixtures.js';
import { type TestServer, testDialects } from '../../testing/test-server.js';
import { createDatabaseHealth } from './database-health.service.js';

const metricsShape = {
  connectionUtilization: expect.any(Number),
  activeConnections: expect.any(Number),
  maxConnections: expect.any(Number),
  idleConnections: expect.any(Number),
  avgQueryTime: expect.any(Number),
  slowQueries: expect.any(Number),
};

describe.each(testDialects)('database health on %s', (dialect) => {
  let server: TestServer;
  let alice: SignedInAccount;
  beforeAll(async () => {
    server = await startServer(dialect);
    alice = await signIn(server, 'alice');
  });
  afterAll(() => server.close());

  const check = (json: unknown) =>
    server.request('POST', '/api/health/database/check', { headers: alice.headers, json });

  const scenarios: ApiScenario[] = [
    { name: 'database health without credentials', method: 'GET', url: '/api/health/database', status: 401 },
    {
      name: 'database health with a tampered token',
      method: 'GET',
      url: '/api/health/database',
      headers: () => ({ authorization: `Bearer ${tamper(alice.headers.authorization ?? '')}` }),
      status: 401,
    },
    {
      name: 'a check without credentials',
      method: 'POST',
      url: '/api/health/database/check',
      json: { fullDiagnostic: true },
      status: 401,
    },
    {
      name: 'fullDiagnostic as a string',
      method: 'POST',
      url: '/api/health/database/check',
      headers: () => alice.headers,
      json: { fullDiagnostic: 'true' },
      status: 400,
      expected: { validationErrors: { fullDiagnostic: ['fullDiagnostic must be true or false'] } },
    },
    {
      name: 'fullDiagnostic as a number',
      method: 'POST',
      url: '/api/health/database/check',
      headers: () => alice.headers,
      json: { fullDiagnostic: 1 },
      status: 400,
    },
    {
      name: 'a body that is an array',
      method: 'POST',
      url: '/api/health/database/check',
      headers: () => alice.headers,
      json: [true],
      status: 400,
    },
    {
      name: 'a body that is not JSON',
      method: 'POST',
      url: '/api/health/database/check',
      headers: () => ({ ...alice.headers, 'content-type': 'application/json' }),
      body: '{fullDiagnostic:',
      status: 400,
      expected: { code: 'bad_json' },
    },
  ];
  it.each(scenarios)('refuses $name', (scenario) => runScenario(server, scenario).then(() => undefined));

  it('answers the liveness probe without credentials or the database', async () => {
    const res = await server.request('GET', '/api/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', version: expect.any(String) });
  });

  it('measures the database for a signed-in user', async () => {
    const res = await server.request('GET', '/api/health/database', { headers: alice.headers });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body).toMatchObject({
      connected: true,
      message: 'Database connection is healthy',
      version: expect.stringMatching(dialect === 'sqlite' ? /^SQLite 3\.\d+/ : /^PostgreSQL \d+/),
      metrics: metricsShape,
      details: { engine: dialect, sizeBytes: expect.any(Number), probeQueries: expect.any(Number), slowQueryMs: 100 },
      checkedAt: expect.any(String),
    });
    const { metrics, details } = res.body;
    expect(metrics.connectionUtilization).toBeGreaterThanOrEqual(0);
    expect(metrics.connectionUtilization).toBeLessThanOrEqual(1);
    expect(metrics.avgQueryTime).toBeGreaterThan(0);
    expect(metrics.slowQueries).toBe(0);
    expect(details.probeQueries).toBeGreaterThanOrEqual(3);
    expect(details.sizeBytes).toBeGreaterThan(0);
    if (dialect === 'sqlite') {
      expect(metrics).toMatchObject({ maxConnections: 1, activeConnections: 0, idleConnections: 1 });
      expect(details).toMatchObject({ pageSize: expect.any(Number), pageCount: expect.any(Number) });
      expect(details.walSizeBytes).toBeGreaterThanOrEqual(0);
    } else {
      expect(metrics.maxConnections).toBeGreaterThan(1);
      expect(details.pool).toMatchObject({ max: 10, size: expect.any(Number) });
      expect(details.databaseConnections).toBeGreaterThanOrEqual(1);
      // The check's own connection is active.
      expect(metrics.activeConnections).toBeGreaterThanOrEqual(1);
      expect(metrics.activeConnections + metrics.idleConnections).toBeLessThanOrEqual(details.serverConnections);
    }
    // The window grows with each check.
    const again = await server.request('GET', '/api/health/database', { headers: alice.headers });
    expect(again.body.details.probeQueries).toBe(details.probeQueries + 3);
  });

  it('answers a check without diagnostic with integrity null', async () => {
    for (const body of [{}, { fullDiagnostic: false }, undefined]) {
      const res = await check(body);
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject({ connected: true, metrics: metricsShape, integrity: null });
    }
  });

  it('runs the full diagnostic and finds nothing wrong on a sound database', async () => {
    const res = await check({ fullDiagnostic: true });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ connected: true, metrics: metricsShape });
    const { integrity } = res.body;
    expect(integrity).toMatchObject({ ok: true, durationMs: expect.any(Number) });
    const names = integrity.checks.map((c: { name: string }) => c.name);
    expect(names).toEqual(
      dialect === 'sqlite'
        ? ['quick_check', 'foreign_keys', 'table_definitions']
        : ['indexes', 'constraints', 'tables_readable', 'table_definitions'],
    );
    for (const c of integrity.checks) {
      expect(c).toMatchObject({ ok: true, message: expect.any(String), problems: [] });
    }
  });

  it('lets concurrent diagnostics share one run', async () => {
    const service = createDatabaseHealth(server.app.basalt.db);
    const [a, b] = await Promise.all([
      service.check({ fullDiagnostic: true }),
      service.check({ fullDiagnostic: true }),
    ]);
    expect(b.integrity).toBe(a.integrity);
    const later = await service.check({ fullDiagnostic: true });
    expect(later.integrity).not.toBe(a.integrity);
  });

  it('reports what the diagnostic found: a table definition without its SQL table', async () => {
    const created = await server.request('POST', '/api/tables', {
      headers: alice.headers,
      json: { name: 'orders', schema: { total: { type: 'number' } } },
    });
    expect(created.status, created.text).toBe(201);
    const table = userTableName(created.body.id);
    await server.app.basalt.db.kysely.schema.dropTable(table).execute();

    const res = await check({ fullDiagnostic: true });
    expect(res.body.connected).toBe(true);
    expect(res.body.integrity.ok).toBe(false);
    const found = res.body.integrity.checks.find((c: { name: string }) => c.name === 'table_definitions');
    expect(found).toEqual({
      name: 'table_definitions',
      ok: false,
      message: '1 table definition(s) have no SQL table',
      problems: [`table "orders" (id ${created.body.id}, account ${alice.accountId}) has no SQL table ${table}`],
    });
  });
});
