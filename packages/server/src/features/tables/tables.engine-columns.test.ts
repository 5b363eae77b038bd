import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SignedInAccount, signIn } from '../../testing/tables.fixtures.js';
import { startTestServer, type TestServer, testDialects } from '../../testing/test-server.js';

// Names the engines keep for their own hidden columns: PostgreSQL's ctid, xmin, xmax, cmin, cmax and tableoid,
// SQLite's rowid, oid and _rowid_. A schema must mean the same on both engines, so every path that names a
// column refuses all of them, in any case, with the same 400 the console's form shows.

const ENGINE_NAMES = ['ctid', 'xmin', 'xmax', 'cmin', 'cmax', 'tableoid', 'oid', 'rowid', 'ROWID', 'Ctid', 'OID'];
const refusal = (name: string) => `"${name}" is reserved by the database engines; choose another column name`;
const TEXT = { type: 'text' };

describe.each(testDialects)('engine column names on %s', (dialect) => {
  let server: TestServer;
  let alice: SignedInAccount;
  let tableId: number;
  let tableBefore: unknown;
  let n = 0;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    alice = await signIn(server, 'alice');
    const created = await server.request('POST', '/api/tables', {
      headers: alice.headers,
      json: { name: 'notes', schema: { title: TEXT } },
    });
    expect(created.status).toBe(201);
    tableId = created.body.id;
    tableBefore = created.body;
  });
  afterAll(() => server.close());

  const api = (method: string, path: string, json: unknown) =>
    server.request(method, path, { headers: alice.headers, json });

  const paths: Array<[string, (name: string) => ReturnType<typeof api>]> = [
    ['POST /api/tables', (name) => api('POST', '/api/tables', { name: `t${++n}_x`, schema: { [name]: TEXT } })],
    [
      'PUT schema (add)',
      (name) => api('PUT', `/api/tables/${tableId}/schema`, { schema: { title: TEXT, [name]: TEXT } }),
    ],
    ['PATCH schema (add)', (name) => api('PATCH', `/api/tables/${tableId}`, { schema: { title: TEXT, [name]: TEXT } })],
    [
      'PUT schema (rename)',
      (name) => api('PUT', `/api/tables/${tableId}/schema`, { schema: { [name]: TEXT }, renames: { title: name } }),
    ],
    [
      'schema preview',
      (name) => api('POST', `/api/tables/${tableId}/schema/preview`, { schema: { title: TEXT, [name]: TEXT } }),
    ],
  ];

  it.each(paths)('%s refuses every engine column name with 400 naming it', async (_path, send) => {
    for (const name of ENGINE_NAMES) {
      const res = await send(name);
      expect({ name, status: res.status, message: res.body?.message }).toEqual({
        name,
        status: 400,
        message: refusal(name),
      });
    }
    const tables = await server.request('GET', '/api/tables', { headers: alice.headers });
    expect(tables.body).toEqual([tableBefore]);
  });

  it('refuses them on /rest/v1/tables insert with a PostgREST body', async () => {
    const headers = { ...alice.headers, apikey: server.anonKey, prefer: 'return=representation' };
    for (const name of ENGINE_NAMES) {
      const res = await server.request('POST', '/rest/v1/tables', {
        headers,
        json: { name: `r${++n}_x`, schema: { [name]: TEXT } },
      });
      expect({ name, status: res.status, message: res.body?.message }).toEqual({
        name,
        status: 400,
        message: refusal(name),
      });
    }
    const tables = await server.request('GET', '/api/tables', { headers: alice.headers });
    expect(tables.body).toEqual([tableBefore]);
  });

  it('still takes names that only contain an engine name', async () => {
    const res = await api('PUT', `/api/tables/${tableId}/schema`, {
      schema: { title: TEXT, ctid_copy: TEXT, my_rowid: TEXT, oids: TEXT },
    });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.schema)).toEqual(['id', 'title', 'ctid_copy', 'my_rowid', 'oids']);
    tableBefore = res.body;
  });
});
