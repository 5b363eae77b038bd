import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiScenario, runScenario } from '../../testing/auth.fixtures.js';
import {
  addMemberAs,
  createProjectAs,
  linkTableAs,
  type Member,
  signInMember,
} from '../../testing/projects.fixtures.js';
import { startTestServer, type TestServer, testDialects } from '../../testing/test-server.js';
import { EXPORT_BATCH } from './records-csv.js';

// The records grid's calls: filtered pages, bulk create (a POST of a list), bulk delete and the CSV export, for use
// and for bad input, on both engines.

const SCHEMA = {
  title: { type: 'text' },
  qty: { type: 'number' },
  paid: { type: 'boolean' },
  meta: { type: 'json' },
};

describe.each(testDialects)('the records grid’s calls (%s)', (dialect) => {
  let server: TestServer;
  let alice: Member;
  let bob: Member;
  let viewer: Member;
  let tableId: number;
  let bobTableId: number;
  const as = (who: Member, method: string, url: string, json?: unknown) =>
    server.request(method, url, { headers: who.headers, ...(json === undefined ? {} : { json }) });
  const all = async () =>
    (await as(alice, 'GET', `/api/tables/${tableId}/records?limit=1000`)).body.data as Array<Record<string, unknown>>;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    alice = await signInMember(server, 'alice');
    bob = await signInMember(server, 'bob');
    viewer = await signInMember(server, 'vera');
    const created = await as(alice, 'POST', '/api/tables', { name: 'orders', schema: SCHEMA });
    expect(created.status, created.text).toBe(201);
    tableId = created.body.id;
    const other = await as(bob, 'POST', '/api/tables', { name: 'orders', schema: SCHEMA });
    bobTableId = other.body.id;
    const projectId = await createProjectAs(server, alice);
    await addMemberAs(server, alice, projectId, viewer, 'VIEWER');
    await linkTableAs(server, alice, projectId, tableId);
  });

  afterAll(async () => {
    await server?.close();
  });

  it('creates a list of records in one call, all or none', async () => {
    const rows = [
      { title: 'tea, green', qty: 3, paid: true, meta: { a: 1 } },
      { title: 'say "hi"', qty: 1, paid: false, meta: null },
      { title: 'two\nlines', qty: 7, paid: null, meta: [1, 2] },
      { title: 'scone', qty: 5, paid: true },
    ];
    const created = await as(alice, 'POST', `/api/tables/${tableId}/records`, rows);
    expect(created.status, created.text).toBe(201);
    expect(created.body.map((r: { title: string }) => r.title)).toEqual(rows.map((r) => r.title));
    const refused = await as(alice, 'POST', `/api/tables/${tableId}/records`, [{ title: 'fine' }, { qty: 'many' }]);
    expect(refused.status).toBe(400);
    expect(await all()).toHaveLength(4);
  });

  it('pages a filtered selection with its own total, from either end', async () => {
    const page = await as(alice, 'GET', `/api/tables/${tableId}/records?qty=gte.3&orderBy=qty&order=desc&limit=2`);
    expect(page.status, page.text).toBe(200);
    expect(page.body.total).toBe(3);
    expect(page.body.data.map((r: { qty: number }) => r.qty)).toEqual([7, 5]);
    const last = await as(alice, 'GET', `/api/tables/${tableId}/records?qty=gte.3&orderBy=qty&order=desc&offset=2`);
    expect(last.body.data.map((r: { qty: number }) => r.qty)).toEqual([3]);
    const text = await as(alice, 'GET', `/api/tables/${tableId}/records?title=ilike.*TEA*`);
    expect(text.body).toMatchObject({ total: 1, data: [{ title: 'tea, green' }] });
    const either = await as(alice, 'GET', `/api/tables/${tableId}/records?or=(paid.is.null,qty.eq.1)`);
    expect(either.body.total).toBe(2);
    const viewed = await as(viewer, 'GET', `/api/tables/${tableId}/records?paid=is.true`);
    expect(viewed.body.total).toBe(2);
  });

  it('exports the selection as CSV that reads back to the same values', async () => {
    const res = await as(alice, 'GET', `/api/tables/${tableId}/records/export`);
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="orders.csv"');
    const parsed = Papa.parse<string[]>(res.text.trimEnd(), { newline: '\r\n' });
    expect(parsed.errors).toEqual([]);
    const [header, ...lines] = parsed.data;
    expect(header).toEqual(['id', 'title', 'qty', 'paid', 'meta', 'created_at', 'updated_at']);
    expect(lines.map((line) => line.slice(1, 5))).toEqual([
      ['tea, green', '3', 'true', '{"a":1}'],
      ['say "hi"', '1', 'false', ''],
      ['two\nlines', '7', '', '[1,2]'],
      ['scone', '5', 'true', ''],
    ]);
    const filtered = await as(alice, 'GET', `/api/tables/${tableId}/records/export?paid=is.true&limit=1`);
    expect(filtered.text.trimEnd().split('\r\n')).toHaveLength(3);
    const empty = await as(alice, 'GET', `/api/tables/${tableId}/records/export?qty=gt.100`);
    expect(empty.text).toBe('id,title,qty,paid,meta,created_at,updated_at\r\n');
  });

  it('exports past one batch without skipping or repeating a record', async () => {
    const created = await as(alice, 'POST', '/api/tables', { name: 'many', schema: { n: { type: 'number' } } });
    const id = created.body.id;
    const rows = Array.from({ length: EXPORT_BATCH }, (_, i) => ({ n: i }));
    expect((await as(alice, 'POST', `/api/tables/${id}/records`, rows)).status).toBe(201);
    expect((await as(alice, 'POST', `/api/tables/${id}/records`, rows.slice(0, 5))).status).toBe(201);
    const res = await as(alice, 'GET', `/api/tables/${id}/records/export`);
    const ids = res.text
      .trimEnd()
      .split('\r\n')
      .slice(1)
      .map((line) => Number(line.split(',')[0]));
    expect(ids).toEqual(Array.from({ length: EXPORT_BATCH + 5 }, (_, i) => i + 1));
  });

  it('deletes the named records in one call and no others', async () => {
    const before = await all();
    const [first, second] = before;
    const res = await as(alice, 'DELETE', `/api/tables/${tableId}/records`, { ids: [first?.id, second?.id, 999_999] });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ success: true, message: '2 records deleted', deleted: 2, ids: [first?.id, second?.id] });
    expect((await all()).map((r) => r.id)).toEqual(before.slice(2).map((r) => r.id));
    const history = await as(alice, 'GET', `/api/history?tableId=${tableId}`);
    expect(JSON.stringify(history.body)).toContain('RECORD_DELETE');
  });

  const bad = (): ApiScenario[] => {
    const url = `/api/tables/${tableId}/records`;
    const own = () => alice.headers;
    return [
      { name: 'no credentials, export', method: 'GET', url: `${url}/export`, status: 401 },
      { name: 'no credentials, delete', method: 'DELETE', url, json: { ids: [1] }, status: 401 },
      {
        name: 'another account’s table, delete',
        method: 'DELETE',
        url,
        headers: () => bob.headers,
        json: { ids: [3] },
        status: 404,
      },
      {
        name: 'another account’s table, export',
        method: 'GET',
        url: `${url}/export`,
        headers: () => bob.headers,
        status: 404,
      },
      {
        name: 'a viewer deletes',
        method: 'DELETE',
        url,
        headers: () => viewer.headers,
        json: { ids: [3] },
        status: 403,
      },
      {
        name: 'an unknown table, export',
        method: 'GET',
        url: '/api/tables/999999/records/export',
        headers: own,
        status: 404,
      },
      { name: 'a filter on an unknown column', method: 'GET', url: `${url}?nope=eq.1`, headers: own, status: 400 },
      { name: 'an unknown operator', method: 'GET', url: `${url}?qty=about.3`, headers: own, status: 400 },
      { name: 'a filter of the wrong type', method: 'GET', url: `${url}?qty=gt.many`, headers: own, status: 400 },
      { name: 'a bad filter, export', method: 'GET', url: `${url}/export?qty=gt.many`, headers: own, status: 400 },
      { name: 'a NUL in a filter', method: 'GET', url: `${url}?title=eq.a%00b`, headers: own, status: 400 },
      {
        name: 'a path traversal as a column',
        method: 'GET',
        url: `${url}?..%2F..%2Fetc=eq.1`,
        headers: own,
        status: 400,
      },
      {
        name: 'a deeply nested tree',
        method: 'GET',
        url: `${url}?or=${'or('.repeat(40)}qty.eq.1${')'.repeat(40)}`,
        headers: own,
        status: 400,
      },
      { name: 'no body', method: 'DELETE', url, headers: own, status: 400 },
      { name: 'no ids', method: 'DELETE', url, headers: own, json: { ids: [] }, status: 400 },
      { name: 'ids not a list', method: 'DELETE', url, headers: own, json: { ids: '3' }, status: 400 },
      { name: 'an id that is text', method: 'DELETE', url, headers: own, json: { ids: ['3'] }, status: 400 },
      { name: 'a negative id', method: 'DELETE', url, headers: own, json: { ids: [-3] }, status: 400 },
      { name: 'a fractional id', method: 'DELETE', url, headers: own, json: { ids: [3.5] }, status: 400 },
      {
        name: 'too many ids',
        method: 'DELETE',
        url,
        headers: own,
        json: { ids: Array.from({ length: 1001 }, (_, i) => i + 1) },
        status: 400,
      },
      { name: 'an unknown field', method: 'DELETE', url, headers: own, json: { ids: [3], all: true }, status: 400 },
      { name: 'a body that is a list', method: 'DELETE', url, headers: own, json: [3], status: 400 },
      { name: 'an empty list to create', method: 'POST', url, headers: own, json: [], status: 400 },
      { name: 'a list of non-objects', method: 'POST', url, headers: own, json: [1, 2], status: 400 },
      { name: 'a nested list', method: 'POST', url, headers: own, json: [[{ title: 'x' }]], status: 400 },
      {
        name: 'too many records',
        method: 'POST',
        url,
        headers: own,
        json: Array.from({ length: 1001 }, () => ({})),
        status: 400,
      },
      {
        name: 'a list into another account’s table',
        method: 'POST',
        url: `/api/tables/${bobTableId}/records`,
        headers: own,
        json: [{ title: 'x' }],
        status: 404,
      },
      {
        name: 'a viewer creates a list',
        method: 'POST',
        url,
        headers: () => viewer.headers,
        json: [{ title: 'x' }],
        status: 403,
      },
    ];
  };

  it('answers bad input, foreign tables, roles and missing credentials with 4xx, changing nothing', async () => {
    const before = await all();
    const bobs = (await as(bob, 'GET', `/api/tables/${bobTableId}/records`)).body;
    for (const scenario of bad()) {
      await runScenario(server, scenario).catch((error: Error) => {
        throw new Error(`${scenario.name}: ${error.message}`);
      });
    }
    expect(await all()).toEqual(before);
    expect((await as(bob, 'GET', `/api/tables/${bobTableId}/records`)).body).toEqual(bobs);
  });
});
