import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAuthServer, users } from '../../testing/auth.fixtures.js';
import {
  createTable,
  type KeyedUser,
  publicError,
  seedItems,
  signUpWithKey,
} from '../../testing/public-api.fixtures.js';
import { type TestServer, testDialects } from '../../testing/test-server.js';

// The public record API: paging, ordering, filters and headers; one record's CRUD; both URL forms; isolation
// between accounts. Every error status is in public-api.errors.test.ts, hostile input and shadowing in
// public-api.hostile.test.ts, the rate limit in public-api-rate-limit.test.ts.

const SEEDED = 30;
const ids = (body: Array<{ id: number }>) => body.map((r) => r.id);
const range = (from: number, to: number) =>
  from <= to
    ? Array.from({ length: to - from + 1 }, (_, i) => from + i)
    : Array.from({ length: from - to + 1 }, (_, i) => from - i);

describe.each(testDialects)('public record API on %s', (dialect) => {
  let server: TestServer;
  let alice: KeyedUser;
  let bob: KeyedUser;

  beforeAll(async () => {
    server = await startAuthServer(dialect);
    alice = await signUpWithKey(server, users.alice);
    bob = await signUpWithKey(server, users.bob);
    await createTable(server, alice, 'items');
    await createTable(server, bob, 'gadgets', { label: { type: 'text' } });
    await seedItems(server, alice, 'items', SEEDED);
  });
  afterAll(() => server.close());

  const asAlice = () => alice.keyHeaders;
  const asBob = () => bob.keyHeaders;

  describe('list', () => {
    const lists: Array<{ name: string; query: string; ids: number[]; total: number; limit?: number; offset?: number }> =
      [
        {
          name: 'defaults: every row by id, limit 100',
          query: '',
          ids: range(1, 30),
          total: 30,
          limit: 100,
          offset: 0,
        },
        { name: 'a page', query: '?limit=5&offset=10', ids: range(11, 15), total: 30, limit: 5, offset: 10 },
        { name: 'past the end', query: '?limit=5&offset=40', ids: [], total: 30, limit: 5, offset: 40 },
        { name: 'order desc', query: '?order=desc&limit=3', ids: [30, 29, 28], total: 30 },
        { name: 'order DESC (any case)', query: '?order=DESC&limit=2', ids: [30, 29], total: 30 },
        { name: 'orderBy a column', query: '?orderBy=qty&order=desc&limit=2', ids: [30, 29], total: 30 },
        { name: 'orderBy a boolean, ties by id', query: '?orderBy=done&limit=3', ids: [1, 3, 5], total: 30 },
        { name: 'a filter', query: '?qty=gt.250', ids: range(26, 30), total: 5 },
        {
          name: 'the benchmark query',
          query: '?qty=gt.200&orderBy=id&order=desc&limit=3',
          ids: [30, 29, 28],
          total: 10,
        },
        { name: 'two filters on one column', query: '?qty=gte.100&qty=lt.130', ids: [10, 11, 12], total: 3 },
        { name: 'eq on text', query: '?name=eq.item%207', ids: [7], total: 1 },
        { name: 'in', query: '?id=in.(2,4,99)', ids: [2, 4], total: 2 },
        { name: 'not', query: '?id=not.lte.27', ids: [28, 29, 30], total: 3 },
        { name: 'is.true on a boolean', query: '?done=is.true&id=lte.6', ids: [2, 4, 6], total: 3 },
        {
          name: 'like with *',
          query: '?name=like.item%202*',
          ids: [2, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29],
          total: 11,
        },
        { name: 'ilike', query: '?name=ilike.ITEM%203*', ids: [3, 30], total: 2 },
        { name: 'cs on an array', query: '?tags=cs.{t0}&id=lte.9', ids: [3, 6, 9], total: 3 },
        { name: 'cs on json', query: '?meta=cs.{"n":4}', ids: [4], total: 1 },
        { name: 'an or tree', query: '?or=(id.eq.1,qty.gte.290)', ids: [1, 29, 30], total: 3 },
        { name: 'a JSON path as text', query: '?meta->>n=eq.4', ids: [4], total: 1 },
        { name: 'a JSON path compared as JSON', query: '?meta->n=gt.27', ids: [28, 29, 30], total: 3 },
        { name: 'an array index', query: '?tags->>0=eq.t0&id=lte.9', ids: [3, 6, 9], total: 3 },
        { name: 'a JSON path in an or tree', query: '?or=(meta->n.eq.1,meta->>n.eq.30)', ids: [1, 30], total: 2 },
        { name: 'a filter and a page', query: '?done=is.false&limit=2&offset=1', ids: [3, 5], total: 15 },
        { name: 'limit above 1000 is capped', query: '?limit=5000&id=lte.2', ids: [1, 2], total: 2, limit: 1000 },
        { name: 'limit 0 counts only', query: '?limit=0', ids: [], total: 30, limit: 0 },
      ];
    it.each(lists)('$name', async (c) => {
      const res = await server.request('GET', `/api/table/items${c.query}`, { headers: asAlice() });
      expect(res.status).toBe(200);
      expect(ids(res.body)).toEqual(c.ids);
      expect(res.headers.get('x-total-count')).toBe(String(c.total));
      if (c.limit !== undefined) expect(res.headers.get('x-page-limit')).toBe(String(c.limit));
      if (c.offset !== undefined) expect(res.headers.get('x-page-offset')).toBe(String(c.offset));
    });

    it('returns records with typed values and the system columns', async () => {
      const res = await server.request('GET', '/api/table/items?id=eq.2', { headers: asAlice() });
      expect(res.body).toEqual([
        {
          id: 2,
          name: 'item 2',
          qty: 20,
          done: true,
          sku: 'SKU-2',
          tags: ['t2'],
          meta: { n: 2 },
          created_at: expect.any(String),
          updated_at: expect.any(String),
        },
      ]);
    });

    it('exposes the paging headers to browsers', async () => {
      const res = await server.request('GET', '/api/table/items?limit=1', {
        headers: { ...asAlice(), origin: 'http://example.test' },
      });
      expect(res.headers.get('access-control-expose-headers')).toMatch(/X-Total-Count.*X-Page-Limit.*X-Page-Offset/);
    });
  });

  describe('one record', () => {
    it('creates (201, Location), reads, replaces, merges and deletes', async () => {
      const created = await server.request('POST', '/api/table/items', {
        headers: asAlice(),
        json: { name: 'lamp', qty: 3, done: false, sku: 'LAMP-1', tags: ['home'], meta: { watts: 40 } },
      });
      expect(created).toMatchObject({
        status: 201,
        body: { name: 'lamp', qty: 3, done: false, tags: ['home'], meta: { watts: 40 } },
      });
      const { id } = created.body;
      expect(created.headers.get('location')).toBe(`/api/table/items/${id}`);

      const read = await server.request('GET', `/api/table/items/${id}`, { headers: asAlice() });
      expect(read.body).toEqual(created.body);

      const merged = await server.request('PATCH', `/api/table/items/${id}`, { headers: asAlice(), json: { qty: 4 } });
      expect(merged).toMatchObject({
        status: 200,
        body: { id, name: 'lamp', qty: 4, sku: 'LAMP-1', meta: { watts: 40 } },
      });

      const replaced = await server.request('PUT', `/api/table/items/${id}`, {
        headers: asAlice(),
        json: { name: 'desk lamp', qty: 5 },
      });
      expect(replaced).toMatchObject({
        status: 200,
        body: {
          id,
          name: 'desk lamp',
          qty: 5,
          done: null,
          sku: null,
          tags: null,
          meta: null,
          created_at: created.body.created_at,
        },
      });

      const noChange = await server.request('PATCH', `/api/table/items/${id}`, {
        headers: asAlice(),
        json: { id: 999 },
      });
      expect(noChange).toMatchObject({ status: 200, body: { id, name: 'desk lamp' } });

      const deleted = await server.request('DELETE', `/api/table/items/${id}`, { headers: asAlice() });
      expect(deleted).toMatchObject({ status: 200, body: { success: true, message: 'Record deleted successfully' } });
      const gone = await server.request('GET', `/api/table/items/${id}`, { headers: asAlice() });
      expect(gone).toMatchObject({ status: 404, body: publicError('RECORD_NOT_FOUND') });
    });

    it('writes history through the records service', async () => {
      const created = await server.request('POST', '/api/table/items', {
        headers: asAlice(),
        json: { name: 'tracked' },
      });
      const history = await server.app.basalt.db.kysely
        .selectFrom('change_history')
        .selectAll()
        .where('record_id', '=', created.body.id)
        .where('change_type', '=', 'RECORD_CREATE')
        .execute();
      expect(history).toHaveLength(1);
      expect(history[0]?.account_id).toBe(alice.id);
    });

    it("accepts a signed-in user's token as well as a key", async () => {
      const res = await server.request('GET', '/api/table/items/1', { headers: alice.tokenHeaders });
      expect(res).toMatchObject({ status: 200, body: { id: 1 } });
    });

    it('works the same under the short form /api/<name>', async () => {
      const created = await server.request('POST', '/api/items', { headers: asAlice(), json: { name: 'short' } });
      expect(created.status).toBe(201);
      expect(created.headers.get('location')).toBe(`/api/items/${created.body.id}`);
      expect((await server.request('GET', `/api/items/${created.body.id}`, { headers: asAlice() })).body.name).toBe(
        'short',
      );
      const patched = await server.request('PATCH', `/api/items/${created.body.id}`, {
        headers: asAlice(),
        json: { qty: 1 },
      });
      expect(patched.body.qty).toBe(1);
      const page = await server.request('GET', '/api/items?limit=2&order=desc', { headers: asAlice() });
      expect(page.headers.get('x-page-limit')).toBe('2');
      expect(ids(page.body)[0]).toBe(created.body.id);
      expect(
        (await server.request('DELETE', `/api/items/${created.body.id}`, { headers: asAlice() })).body.success,
      ).toBe(true);
    });
  });

  describe('isolation', () => {
    const forms = [
      ['list', 'GET', '/api/table/items'],
      ['list, short form', 'GET', '/api/items'],
      ['get', 'GET', '/api/table/items/1'],
      ['get, short form', 'GET', '/api/items/1'],
      ['create', 'POST', '/api/table/items'],
      ['create, short form', 'POST', '/api/items'],
      ['replace', 'PUT', '/api/table/items/1'],
      ['merge, short form', 'PATCH', '/api/items/1'],
      ['delete', 'DELETE', '/api/table/items/1'],
      ['delete, short form', 'DELETE', '/api/items/1'],
    ] as const;
    it.each(forms)("another account's key gets 404 for the table: %s", async (_, method, url) => {
      const json = method === 'GET' || method === 'DELETE' ? undefined : { name: 'intruder' };
      for (const headers of [bob.keyHeaders, bob.tokenHeaders]) {
        const res = await server.request(method, url, { headers, json });
        expect(res).toMatchObject({ status: 404, body: publicError('TABLE_NOT_FOUND') });
      }
    });

    it("leaves the first account's rows untouched and keeps each account's tables apart", async () => {
      const res = await server.request('GET', '/api/table/items/1', { headers: asAlice() });
      expect(res).toMatchObject({ status: 200, body: { id: 1, name: 'item 1' } });
      expect((await server.request('GET', '/api/table/gadgets', { headers: asAlice() })).status).toBe(404);
      expect((await server.request('GET', '/api/table/gadgets', { headers: asBob() })).status).toBe(200);
    });
  });
});
