import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addMemberAs,
  createProjectAs,
  createTableAs,
  type Member,
  signInMember,
} from '../../testing/projects.fixtures.js';
import { startTestServer, type TestServer, testDialects } from '../../testing/test-server.js';

// "Import existing tables" for someone whose tables are their own (issue 35: it said "Nothing to import" to a
// person with tables): the candidates, linking the named own tables and drawing them, and the refusals.

describe.each(testDialects)('importing existing tables (%s)', (dialect) => {
  let server: TestServer;
  let ada: Member;
  let bob: Member;
  let viewer: Member;
  let projectId: string;
  let customers: number;
  let orders: number;
  let bobs: number;

  const as = (who: Member, method: string, url: string, json?: unknown) =>
    server.request(method, url, { headers: who.headers, ...(json === undefined ? {} : { json }) });
  const importUrl = () => `/api/projects/${projectId}/schema/import`;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    ada = await signInMember(server, 'ada');
    bob = await signInMember(server, 'bob');
    viewer = await signInMember(server, 'vera');
    projectId = await createProjectAs(server, ada, 'Shop');
    await addMemberAs(server, ada, projectId, bob, 'DEVELOPER');
    await addMemberAs(server, ada, projectId, viewer, 'VIEWER');
    customers = await createTableAs(server, ada, 'customers');
    orders = await createTableAs(server, ada, 'orders');
    bobs = await createTableAs(server, bob, 'invoices');
  });
  afterAll(() => server?.close());

  it('offers the caller’s own tables when none is linked yet', async () => {
    const res = await as(ada, 'GET', importUrl());
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      linked: [],
      own: [
        { id: customers, name: 'customers' },
        { id: orders, name: 'orders' },
      ],
    });
  });

  it('links the named own tables and draws them; another import then has nothing left', async () => {
    const res = await as(ada, 'POST', importUrl(), { tableIds: [orders, customers, orders] });
    expect(res.status, res.text).toBe(200);
    expect(res.body.imported).toBe(2);
    expect(res.body.layout.elements.map((e: { name: string }) => e.name)).toEqual(['customers', 'orders']);
    const linked = (await as(ada, 'GET', `/api/projects/${projectId}/tables`)).body.map((t: { id: number }) => t.id);
    expect(linked.sort()).toEqual([customers, orders].sort());
    expect((await as(ada, 'GET', importUrl())).body).toEqual({ linked: [], own: [] });
    expect((await as(ada, 'POST', importUrl())).body.imported).toBe(0);
  });

  it('offers a member only its own tables, and draws the linked ones without a body', async () => {
    expect((await as(bob, 'GET', importUrl())).body).toEqual({ linked: [], own: [{ id: bobs, name: 'invoices' }] });
    const res = await as(bob, 'POST', importUrl(), { tableIds: [bobs] });
    expect(res.body.imported).toBe(1);
  });

  const refused: Array<[string, () => Member, () => unknown, number]> = [
    ['another account’s table', () => bob, () => ({ tableIds: [customers] }), 404],
    ['an unknown table', () => ada, () => ({ tableIds: [987654] }), 404],
    ['ids that are text', () => ada, () => ({ tableIds: ['1'] }), 400],
    ['a negative id', () => ada, () => ({ tableIds: [-1] }), 400],
    ['too many ids', () => ada, () => ({ tableIds: Array.from({ length: 201 }, (_, i) => i + 1) }), 400],
    ['an unknown field', () => ada, () => ({ tables: [1] }), 400],
    ['a body that is a list', () => ada, () => [1], 400],
    ['a VIEWER', () => viewer, () => ({ tableIds: [] }), 403],
  ];
  it.each(refused)('refuses %s (%#)', async (_, who, body, status) => {
    const res = await as(who(), 'POST', importUrl(), body());
    expect(res.status, res.text).toBe(status);
    expect(res.body.error ?? res.body).toHaveProperty('message');
  });

  it('answers a VIEWER’s and a stranger’s question about candidates with 403 and 404', async () => {
    expect((await as(viewer, 'GET', importUrl())).status).toBe(403);
    const stranger = await signInMember(server, 'sam');
    expect((await as(stranger, 'GET', importUrl())).status).toBe(404);
  });
});
