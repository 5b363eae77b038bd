import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RestUser, startSeededRestServer } from '../../testing/rest.fixtures.js';
import type { TestServer } from '../../testing/test-server.js';

// Prefer: count=exact|planned|estimated on /rest/v1 (features/records/record-counts.ts). Exact is the true count,
// whether kept, cached or counted; planned is an estimate (on PostgreSQL the planner's, on SQLite a sample scaled
// to the kept row count), exact when the table is smaller than the sample; estimated is exact on tables this
// small. Each answers Content-Range with its total and names the count in Preference-Applied.

describe.each(['sqlite', ...(process.env.TEST_DATABASE_URL ? ['postgres' as const] : [])] as const)(
  'counts on /rest/v1 on %s',
  (dialect) => {
    let server: TestServer;
    let alice: RestUser;

    beforeAll(async () => {
      ({ server, alice } = await startSeededRestServer(dialect, 'todos'));
      // 60 more rows: qty 0…59.
      const rows = Array.from({ length: 60 }, (_, i) => ({ title: `t${i}`, qty: i }));
      const res = await server.request('POST', '/rest/v1/todos', { headers: alice.headers, json: rows });
      expect(res.status).toBe(201);
    });
    afterAll(() => server.close());

    const counted = async (query: string, count: string, method = 'GET') => {
      const res = await server.request(method, `/rest/v1/todos?${query}`, {
        headers: { ...alice.headers, prefer: `count=${count}` },
      });
      expect(res.status, res.text).toBeLessThan(300);
      return { total: Number(res.headers.get('content-range')?.split('/')[1]), res };
    };

    it.each([
      ['select=id', 64],
      ['select=id&qty=gt.30', 29 + 0],
      ['select=id&qty=gte.5&qty=lt.10', 5 + 2],
      ['select=id&title=like.t1*', 11],
      ['select=id&or=(qty.is.null,done.is.true)', 1 + 2],
    ])('exact, planned and estimated count %s', async (query, expected) => {
      expect((await counted(query, 'exact')).total).toBe(expected);
      // Below the sample's size (SQLite) the planned count is exact; PostgreSQL's planner only estimates.
      const planned = await counted(query, 'planned');
      expect(Number.isInteger(planned.total) && planned.total >= 0).toBe(true);
      if (dialect === 'sqlite') expect(planned.total).toBe(expected);
      expect(planned.res.headers.get('preference-applied')).toBe('count=planned');
      expect((await counted(query, 'estimated')).total).toBe(expected);
      expect((await counted(query, 'exact', 'HEAD')).total).toBe(expected);
    });

    it('counts a write at once, exact after inserts, updates and deletes', async () => {
      expect((await counted('select=id&qty=gt.50', 'exact')).total).toBe(9);
      await server.request('PATCH', '/rest/v1/todos?qty=gte.55', { headers: alice.headers, json: { qty: 1 } });
      expect((await counted('select=id&qty=gt.50', 'exact')).total).toBe(4);
      await server.request('DELETE', '/rest/v1/todos?qty=eq.51', { headers: alice.headers });
      expect((await counted('select=id&qty=gt.50', 'exact')).total).toBe(3);
      expect((await counted('select=id', 'exact')).total).toBe(63);
      await server.request('POST', '/rest/v1/todos', { headers: alice.headers, json: { title: 'late', qty: 99 } });
      expect((await counted('select=id&qty=gt.50', 'exact')).total).toBe(4);
      expect((await counted('select=id', 'exact')).total).toBe(64);
    });
  },
);
