import { isReservedTableName } from '@basalt/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type KeyedUser, startItemsServer } from '../../testing/public-api.fixtures.js';
import { type TestServer, testDialects } from '../../testing/test-server.js';

// Hostile input never changes data nor answers 500, and the short form /api/<name> never shadows one of
// Basalt's own /api routes.

const SEEDED = 5;
const deep = (depth: number) => `${'['.repeat(depth)}1${']'.repeat(depth)}`;

describe.each(testDialects)('public record API under hostile input on %s', (dialect) => {
  let server: TestServer;
  let alice: KeyedUser;

  beforeAll(async () => {
    ({ server, alice } = await startItemsServer(dialect, SEEDED));
  });
  afterAll(() => server.close());

  const send = (method: string, url: string, init: { json?: unknown; body?: string } = {}) =>
    server.request(method, url, {
      headers: { ...alice.keyHeaders, ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...init,
    });

  const hostile: Array<{ name: string; method: string; url: string; json?: unknown; body?: string; status: number }> = [
    {
      name: 'SQL in a filter value',
      method: 'GET',
      url: `/api/table/items?name=eq.${encodeURIComponent("x'; DROP TABLE t_1; --")}`,
      status: 200,
    },
    {
      name: 'SQL in an in list',
      method: 'GET',
      url: `/api/table/items?id=in.(1,${encodeURIComponent('2); DELETE FROM api_keys; --')})`,
      status: 400,
    },
    {
      name: 'SQL in a like pattern',
      method: 'GET',
      url: `/api/table/items?name=like.${encodeURIComponent("%' OR '1'='1")}`,
      status: 200,
    },
    {
      name: 'SQL in orderBy',
      method: 'GET',
      url: `/api/table/items?orderBy=${encodeURIComponent('id; DROP TABLE api_keys')}`,
      status: 400,
    },
    {
      name: 'a quoted identifier in orderBy',
      method: 'GET',
      url: `/api/table/items?orderBy=${encodeURIComponent('"id"')}`,
      status: 400,
    },
    {
      name: 'SQL in order',
      method: 'GET',
      url: `/api/table/items?order=${encodeURIComponent('asc; DROP TABLE x')}`,
      status: 400,
    },
    {
      name: 'SQL in a filter column',
      method: 'GET',
      url: `/api/table/items?${encodeURIComponent('id) OR (1=1')}=eq.1`,
      status: 400,
    },
    {
      name: 'SQL in the table name',
      method: 'GET',
      url: `/api/table/${encodeURIComponent('items; DROP TABLE api_keys')}`,
      status: 404,
    },
    {
      name: 'SQL in the short-form name',
      method: 'GET',
      url: `/api/${encodeURIComponent("items' OR '1'='1")}`,
      status: 404,
    },
    { name: 'a quoted table name', method: 'GET', url: `/api/table/${encodeURIComponent('"t_1"')}`, status: 404 },
    { name: 'the real SQL name of the table', method: 'GET', url: '/api/table/t_1', status: 404 },
    {
      name: 'SQL in a record id',
      method: 'GET',
      url: `/api/table/items/${encodeURIComponent('1 OR 1=1')}`,
      status: 404,
    },
    { name: 'a huge record id', method: 'DELETE', url: `/api/table/items/${'9'.repeat(30)}`, status: 404 },
    { name: 'a huge limit', method: 'GET', url: `/api/table/items?limit=${'9'.repeat(30)}`, status: 400 },
    { name: 'a huge offset', method: 'GET', url: `/api/table/items?offset=${'9'.repeat(15)}`, status: 200 },
    {
      name: 'a deeply nested or tree',
      method: 'GET',
      url: `/api/table/items?or=${'or('.repeat(200)}id.eq.1${')'.repeat(200)}`,
      status: 400,
    },
    {
      name: 'a thousand filters',
      method: 'GET',
      url: `/api/table/items?${Array.from({ length: 1000 }, () => 'id=gt.0').join('&')}`,
      status: 400,
    },
    {
      name: 'a bad regular expression',
      method: 'GET',
      url: `/api/table/items?name=match.${encodeURIComponent('(')}`,
      status: 400,
    },
    { name: 'a malformed percent escape', method: 'GET', url: '/api/table/items?name=eq.%E0%A4%A', status: 200 },
    {
      name: 'SQL as a field name',
      method: 'POST',
      url: '/api/table/items',
      json: { name: 'x', 'qty" = 1; --': 1 },
      status: 400,
    },
    {
      name: 'SQL as a field value',
      method: 'POST',
      url: '/api/table/items',
      json: { name: "'); DROP TABLE t_1; --" },
      status: 201,
    },
    {
      name: '__proto__ in a body',
      method: 'POST',
      url: '/api/table/items',
      body: '{"name":"x","__proto__":{"admin":true}}',
      status: 400,
    },
    {
      name: 'constructor.prototype in a body',
      method: 'POST',
      url: '/api/table/items',
      body: '{"name":"x","constructor":{"prototype":{"admin":true}}}',
      status: 400,
    },
    {
      name: 'deep JSON in a json column',
      method: 'POST',
      url: '/api/table/items',
      body: `{"name":"x","meta":${deep(5000)}}`,
      status: 400,
    },
    {
      name: 'very deep JSON',
      method: 'POST',
      url: '/api/table/items',
      body: `{"name":"x","meta":${deep(100_000)}}`,
      status: 400,
    },
    {
      name: 'deep JSON as the whole body',
      method: 'PATCH',
      url: '/api/table/items/1',
      body: deep(50_000),
      status: 400,
    },
    {
      name: 'a body over the limit',
      method: 'POST',
      url: '/api/table/items',
      json: { name: 'x'.repeat(2 * 1024 * 1024) },
      status: 413,
    },
    { name: 'an empty body', method: 'POST', url: '/api/table/items', body: '', status: 400 },
    // Many clients send the JSON content type on every request: an empty body is no body, not bad JSON.
    {
      name: 'a JSON content type with no body on a delete',
      method: 'DELETE',
      url: '/api/table/items/999',
      body: '',
      status: 404,
    },
    {
      name: 'a NUL in a value (text cannot hold one)',
      method: 'POST',
      url: '/api/table/items',
      json: { name: 'a\u0000b' },
      status: 400,
    },
    {
      name: 'an id in the body',
      method: 'PUT',
      url: '/api/table/items/1',
      json: { id: 2, name: 'item 1' },
      status: 200,
    },
  ];

  it.each(hostile)('$name → $status, never 500', async (c) => {
    const res = await send(c.method, c.url, { json: c.json, body: c.body });
    expect({ status: res.status, text: res.text.slice(0, 300) }).toMatchObject({ status: c.status });
    if (res.status >= 400) {
      expect(res.body).toMatchObject({ error: { code: expect.any(String), message: expect.any(String) } });
      expect(Object.keys(res.body.error)).toEqual(['code', 'message', 'details']);
    }
  });

  it('left every table and row in place', async () => {
    const res = await send('GET', '/api/table/items?id=lte.5');
    expect(res.body.map((r: { id: number; name: string }) => [r.id, r.name])).toEqual([
      [1, 'item 1'],
      [2, 'item 2'],
      [3, 'item 3'],
      [4, 'item 4'],
      [5, 'item 5'],
    ]);
    const keys = await server.request('GET', '/api/keys', { headers: alice.tokenHeaders });
    expect(keys.body).toHaveLength(1);
  });

  describe("the short form shadows none of Basalt's routes", () => {
    const own: Array<[string, string, number]> = [
      ['GET', '/api/keys', 200],
      ['GET', '/api/tables', 200],
      ['GET', '/api/health', 200],
      ['GET', '/api/config', 200],
      ['GET', '/api/csrf-token', 200],
      ['GET', '/api/stats', 200],
      ['GET', '/api/auth/me', 200],
    ];
    it.each(own)('%s %s still reaches its own route', async (method, url, status) => {
      const res = await server.request(method, url, { headers: alice.tokenHeaders });
      expect(res.status).toBe(status);
      expect(res.body).not.toHaveProperty('error.code', 'TABLE_NOT_FOUND');
    });

    const missing: Array<[string, string]> = [
      ['GET', '/api/keys/1'],
      ['PUT', '/api/keys/1'],
      ['PATCH', '/api/tables/abc/def'],
      ['GET', '/api/health/1'],
      ['POST', '/api/config'],
      ['PUT', '/api/auth/login'],
      ['GET', '/api/table'],
    ];
    it.each(missing)('%s %s is no route (404), not a table', async (method, url) => {
      const res = await server.request(method, url, {
        headers: alice.tokenHeaders,
        json: method === 'GET' ? undefined : { a: 1 },
      });
      expect(res.status).toBe(404);
      expect(JSON.stringify(res.body)).toMatch(/route_not_found|ROUTE_NOT_FOUND/i);
    });

    it('every /api route of Basalt names a reserved word, which no table may take', () => {
      const segments = new Set<string>();
      for (const line of server.app.printRoutes({ commonPrefix: false }).split('\n')) {
        const match = /^[├└]── \/api\/([^/\s]+)/.exec(line);
        if (match?.[1] && !match[1].startsWith(':')) segments.add(match[1]);
      }
      expect(segments.size).toBeGreaterThan(5);
      expect([...segments].filter((s) => !isReservedTableName(s))).toEqual([]);
    });
  });
});
