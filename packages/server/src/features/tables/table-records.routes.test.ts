import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiScenario, runScenario } from '../../testing/auth.fixtures.js';
import { createTableAs, type Member, signInMember } from '../../testing/projects.fixtures.js';
import { startTestServer, type TestServer, testDialects } from '../../testing/test-server.js';

// The console's record calls by table id for use and bad input. Their role
// rules for shared tables are in features/projects/project-roles.test.ts.

describe.each(testDialects)('/api/tables/:id/records (%s)', (dialect) => {
  let server: TestServer;
  let alice: Member;
  let bob: Member;
  let tableId: number;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    alice = await signInMember(server, 'alice');
    bob = await signInMember(server, 'bob');
    tableId = await createTableAs(server, alice, 'notes');
  });

  afterAll(async () => {
    await server?.close();
  });

  it('creates, reads, pages, changes and deletes records', async () => {
    const as = (method: string, url: string, json?: unknown) =>
      server.request(method, url, { headers: alice.headers, ...(json === undefined ? {} : { json }) });
    for (const title of ['a', 'b', 'c'])
      expect((await as('POST', `/api/tables/${tableId}/records`, { title })).status).toBe(201);
    const page = await as('GET', `/api/tables/${tableId}/records?limit=2&offset=1&order=desc`);
    expect(page.body).toMatchObject({ total: 3, limit: 2, offset: 1 });
    expect(page.body.data.map((r: { title: string }) => r.title)).toEqual(['b', 'a']);
    const byTitle = await as('GET', `/api/tables/${tableId}/records?orderBy=title&order=desc&limit=1`);
    expect(byTitle.body.data[0].title).toBe('c');
    const one = await as('GET', `/api/tables/${tableId}/records/2`);
    expect(one.body).toMatchObject({ id: 2, title: 'b' });
    const changed = await as('PATCH', `/api/tables/${tableId}/records/2`, { title: 'B' });
    expect(changed.body).toMatchObject({ id: 2, title: 'B' });
    expect((await as('PATCH', `/api/tables/${tableId}/records/2`, {})).body).toMatchObject({ title: 'B' });
    const deleted = await as('DELETE', `/api/tables/${tableId}/records/2`);
    expect(deleted.body).toMatchObject({ success: true, message: 'Record deleted successfully', record: { id: 2 } });
    expect((await as('GET', `/api/tables/${tableId}/records/2`)).status).toBe(404);
  });

  it('pages every order alike from either end (a page past the middle is read from the other end)', async () => {
    const as = (method: string, url: string, json?: unknown) =>
      server.request(method, url, { headers: alice.headers, ...(json === undefined ? {} : { json }) });
    const created = await as('POST', '/api/tables', { name: 'paged', schema: { qty: { type: 'number' } } });
    expect(created.status).toBe(201);
    const id = created.body.id;
    // 11 records, ties and nulls in qty: 3, null, 1, 3, null, 2, 3, 1, null, 0, 2.
    for (const qty of [3, null, 1, 3, null, 2, 3, 1, null, 0, 2])
      expect((await as('POST', `/api/tables/${id}/records`, { qty })).status).toBe(201);
    for (const [orderBy, order] of [
      ['id', 'asc'],
      ['id', 'desc'],
      ['qty', 'asc'],
      ['qty', 'desc'],
    ]) {
      const all = await as('GET', `/api/tables/${id}/records?orderBy=${orderBy}&order=${order}&limit=100`);
      const ids = all.body.data.map((r: { id: number }) => r.id);
      expect(ids).toHaveLength(11);
      for (const limit of [1, 2, 3, 4, 5, 10, 11, 20]) {
        for (let offset = 0; offset <= 12; offset++) {
          const page = await as(
            'GET',
            `/api/tables/${id}/records?orderBy=${orderBy}&order=${order}&limit=${limit}&offset=${offset}`,
          );
          expect(page.body.total).toBe(11);
          expect(
            page.body.data.map((r: { id: number }) => r.id),
            `${orderBy} ${order} ${limit}@${offset}`,
          ).toEqual(ids.slice(offset, offset + limit));
        }
      }
    }
  });

  const bad = (): ApiScenario[] => [
    { name: 'no credentials', method: 'GET', url: `/api/tables/${tableId}/records`, status: 401 },
    {
      name: 'a wrong token',
      method: 'GET',
      url: `/api/tables/${tableId}/records`,
      headers: { authorization: 'Bearer x.y.z' },
      status: 401,
    },
    {
      name: 'another account’s table',
      method: 'GET',
      url: `/api/tables/${tableId}/records`,
      headers: () => bob.headers,
      status: 404,
    },
    {
      name: 'another account’s table, writing',
      method: 'POST',
      url: `/api/tables/${tableId}/records`,
      headers: () => bob.headers,
      json: { title: 'x' },
      status: 404,
    },
    {
      name: 'an unknown table',
      method: 'GET',
      url: '/api/tables/999999/records',
      headers: () => alice.headers,
      status: 404,
    },
    {
      name: 'a malformed table id',
      method: 'GET',
      url: '/api/tables/1x/records',
      headers: () => alice.headers,
      status: 404,
    },
    {
      name: 'an unknown record',
      method: 'GET',
      url: `/api/tables/${tableId}/records/999`,
      headers: () => alice.headers,
      status: 404,
    },
    {
      name: 'a malformed record id',
      method: 'PATCH',
      url: `/api/tables/${tableId}/records/-1`,
      headers: () => alice.headers,
      json: { title: 'x' },
      status: 404,
    },
    {
      name: 'a body that is a list of lists',
      method: 'POST',
      url: `/api/tables/${tableId}/records`,
      headers: () => alice.headers,
      json: [[{ title: 'x' }]],
      status: 400,
    },
    {
      name: 'a wrong type',
      method: 'POST',
      url: `/api/tables/${tableId}/records`,
      headers: () => alice.headers,
      json: { title: 5 },
      status: 400,
    },
    {
      name: 'an unknown column',
      method: 'POST',
      url: `/api/tables/${tableId}/records`,
      headers: () => alice.headers,
      json: { nope: 1 },
      status: 400,
    },
    {
      name: 'a NUL in text',
      method: 'POST',
      url: `/api/tables/${tableId}/records`,
      headers: () => alice.headers,
      json: { title: 'a\u0000b' },
      status: 400,
    },
    {
      name: 'a limit too large',
      method: 'GET',
      url: `/api/tables/${tableId}/records?limit=5000`,
      headers: () => alice.headers,
      status: 400,
    },
    {
      name: 'a negative offset',
      method: 'GET',
      url: `/api/tables/${tableId}/records?offset=-1`,
      headers: () => alice.headers,
      status: 400,
    },
    {
      name: 'an unknown order',
      method: 'GET',
      url: `/api/tables/${tableId}/records?order=up`,
      headers: () => alice.headers,
      status: 400,
    },
    {
      name: 'an unknown order column',
      method: 'GET',
      url: `/api/tables/${tableId}/records?orderBy=nope`,
      headers: () => alice.headers,
      status: 400,
    },
  ];

  it('answers bad input, unknown and foreign ids and missing credentials with 4xx, changing nothing', async () => {
    const before = await server.request('GET', `/api/tables/${tableId}/records?limit=1000`, { headers: alice.headers });
    for (const scenario of bad()) {
      await runScenario(server, scenario).catch((error: Error) => {
        throw new Error(`${scenario.name}: ${error.message}`);
      });
    }
    const after = await server.request('GET', `/api/tables/${tableId}/records?limit=1000`, { headers: alice.headers });
    expect(after.body).toEqual(before.body);
  });
});
