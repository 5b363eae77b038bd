import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { startAuthServer, users } from '../../testing/auth.fixtures.js';
import { createTable, type KeyedUser, signUpWithKey } from '../../testing/public-api.fixtures.js';
import type { TestServer } from '../../testing/test-server.js';
import { testDialects } from '../../testing/test-server.js';
import { listLogRows } from './logs.store.js';
import { createRequestSummaries, type RequestSample } from './request-summaries.js';

// Successful requests reach the system log as one summary per account, key, method, route, status and window
// (unless LOG_REQUESTS=all); refused requests stay one entry each.

const sample = (overrides: Partial<RequestSample> = {}): RequestSample => ({
  method: 'GET',
  routeKey: '/api/table/:name/:id\u0000items',
  route: () => '/api/table/items/:id',
  status: 200,
  accountId: 'a1',
  keyId: 7,
  durationMs: 1,
  early: false,
  at: Date.parse('2026-01-01T00:00:00Z'),
  entry: () => ({ level: 'info', source: 'api', message: 'GET /api/table/items/3 200', path: '/api/table/items/3' }),
  ...overrides,
});

describe('request summaries', () => {
  it('turn the requests of one route into one entry with their count and timings', () => {
    const summaries = createRequestSummaries();
    summaries.add(sample({ durationMs: 1 }));
    summaries.add(sample({ durationMs: 4.26, at: Date.parse('2026-01-01T00:00:05Z') }));
    summaries.add(sample({ durationMs: 1.1, early: true }));
    const [entry, ...others] = summaries.take();
    expect(others).toEqual([]);
    expect(entry).toEqual({
      at: Date.parse('2026-01-01T00:00:00Z'),
      level: 'info',
      source: 'api',
      message: 'GET /api/table/items/:id 200 × 3 requests (avg 2.1 ms, max 4.3 ms)',
      path: '/api/table/items/:id',
      accountId: 'a1',
      context: {
        method: 'GET',
        status: 200,
        keyId: 7,
        summary: {
          requests: 3,
          answeredEarly: 1,
          from: '2026-01-01T00:00:00.000Z',
          to: '2026-01-01T00:00:00.000Z',
          averageMs: 2.1,
          maxMs: 4.3,
        },
      },
    });
    expect(summaries.size).toBe(0);
    expect(summaries.take()).toEqual([]);
  });

  it('store a lone request as its own entry', () => {
    const summaries = createRequestSummaries();
    summaries.add(sample());
    expect(summaries.take()).toEqual([sample().entry()]);
  });

  it('keep accounts, keys, routes, methods and statuses apart', () => {
    const summaries = createRequestSummaries();
    const variants = [
      sample(),
      sample({ accountId: 'a2' }),
      sample({ accountId: null, keyId: undefined }),
      sample({ keyId: 8 }),
      sample({ routeKey: '/api/table/:name/:id\u0000other', route: () => '/api/table/other/:id' }),
      sample({ method: 'HEAD' }),
      sample({ status: 206 }),
    ];
    for (const s of variants) {
      summaries.add(s);
      summaries.add(s);
    }
    const entries = summaries.take();
    expect(entries).toHaveLength(variants.length);
    expect(entries.map((e) => (e.context?.summary as { requests?: number } | undefined)?.requests)).toEqual(
      variants.map(() => 2),
    );
  });
});

describe('the LOG_REQUESTS setting', () => {
  it("defaults to summaries and accepts 'all'", () => {
    expect(loadConfig({}).logRequests).toBe('summary');
    expect(loadConfig({ LOG_REQUESTS: 'all' }).logRequests).toBe('all');
  });

  it('refuses anything else', () => {
    expect(() => loadConfig({ LOG_REQUESTS: 'every' })).toThrow("LOG_REQUESTS must be 'summary' or 'all'");
  });
});

describe.each(testDialects)('requests in the system log on %s', (dialect) => {
  let server: TestServer;
  afterEach(() => server.close());

  async function start(logRequests: 'summary' | 'all'): Promise<KeyedUser> {
    server = await startAuthServer(dialect, { logRequests });
    const alice = await signUpWithKey(server, users.alice);
    await createTable(server, alice, 'items');
    for (const name of ['one', 'two', 'three']) {
      const created = await server.request('POST', '/api/table/items', {
        headers: alice.keyHeaders,
        json: { name },
      });
      expect(created.status).toBe(201);
    }
    await server.app.basalt.logs.flush();
    return alice;
  }

  const apiEntries = async () => {
    await server.app.basalt.logs.flush();
    const rows = await listLogRows(server.app.basalt.db.kysely, { service: 'api' }, { limit: 100, offset: 0 });
    return rows.map((r) => ({ message: r.message, path: r.path, context: JSON.parse(r.context) }));
  };

  it('summarises successful requests by route and keeps refusals one by one', async () => {
    const alice = await start('summary');
    const refused = await server.request('POST', '/api/table/items', { headers: alice.keyHeaders, json: { qty: 1 } });
    expect(refused.status).toBe(400);
    for (const id of [1, 2, 3, 1]) {
      expect((await server.request('GET', `/api/table/items/${id}`, { headers: alice.keyHeaders })).status).toBe(200);
    }
    expect((await server.request('GET', '/api/table/items/99', { headers: alice.keyHeaders })).status).toBe(404);
    expect((await server.request('GET', '/api/table/items', { headers: alice.keyHeaders })).status).toBe(200);

    const entries = await apiEntries();
    const reads = entries.filter((e) => e.path === '/api/table/items/:id');
    expect(reads).toEqual([
      {
        message: expect.stringMatching(
          /^GET \/api\/table\/items\/:id 200 × 4 requests \(avg [\d.]+ ms, max [\d.]+ ms\)$/,
        ),
        path: '/api/table/items/:id',
        context: expect.objectContaining({
          method: 'GET',
          status: 200,
          summary: expect.objectContaining({ requests: 4 }),
        }),
      },
    ]);
    const messages = entries.map((e) => e.message);
    // A lone request is logged as itself; a refused one always on its own.
    expect(messages).toContain('GET /api/table/items 200');
    expect(messages).toContain('GET /api/table/items/99 404');
    expect(messages).toContain('POST /api/table/items 400');
    expect(messages.filter((m) => m.startsWith('POST /api/table/items 201'))).toEqual([
      expect.stringMatching(/^POST \/api\/table\/items 201 × 3 requests /),
    ]);
    expect(messages.some((m) => m.startsWith('GET /api/table/items/1 '))).toBe(false);
  });

  it('stores every request on its own with LOG_REQUESTS=all', async () => {
    const alice = await start('all');
    for (const id of [1, 2, 1]) {
      expect((await server.request('GET', `/api/table/items/${id}`, { headers: alice.keyHeaders })).status).toBe(200);
    }
    const messages = (await apiEntries()).map((e) => e.message);
    expect(messages.filter((m) => m === 'GET /api/table/items/1 200')).toHaveLength(2);
    expect(messages.filter((m) => m === 'GET /api/table/items/2 200')).toHaveLength(1);
    expect(messages.filter((m) => m === 'POST /api/table/items 201')).toHaveLength(3);
    expect(messages.some((m) => m.includes('× '))).toBe(false);
  });
});
