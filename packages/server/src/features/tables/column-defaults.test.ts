import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SignedInAccount, signIn } from '../../testing/tables.fixtures.js';
import { startTestServer, type TestServer, testDialects } from '../../testing/test-server.js';

// Column defaults (issue 35, as Supabase and PocketBase users expect them): set in the table's schema on create
// and through schema changes (in History, revertable), applied on create through /api and /rest/v1 when a
// field is left out (an explicit null stays null, as in PostgREST), 'now' for dates, shown in the OpenAPI
// document and the generated types (optional on insert), and refused with a clear 400 when they do not fit.

describe.each(testDialects)('column defaults on %s', (dialect) => {
  let server: TestServer;
  let alice: SignedInAccount;
  let rest: Record<string, string>;
  let tableId = 0;

  const SCHEMA = {
    title: { type: 'text', required: true },
    status: { type: 'text', required: true, default: 'draft' },
    qty: { type: 'number', default: 1 },
    done: { type: 'boolean', default: false },
    due: { type: 'date_only', default: 'now' },
    seen_at: { type: 'date', default: 'now' },
    meta: { type: 'json', default: { v: 1 } },
    tags: { type: 'array', default: ['new'] },
  };

  beforeAll(async () => {
    server = await startTestServer(dialect);
    alice = await signIn(server, 'alice');
    rest = { ...alice.headers, apikey: server.anonKey, prefer: 'return=representation' };
    const res = await server.request('POST', '/api/tables', {
      headers: alice.headers,
      json: { name: 'posts', schema: SCHEMA },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.schema.status).toMatchObject({ default: 'draft' });
    tableId = res.body.id;
  }, 60_000);
  afterAll(() => server.close());

  it('fills a left-out column with its default on /api and /rest/v1, and keeps an explicit null', async () => {
    const before = new Date().toISOString();
    const api = await server.request('POST', `/api/tables/${tableId}/records`, {
      headers: alice.headers,
      json: { title: 'one' },
    });
    expect(api.status, api.text).toBe(201);
    expect(api.body).toMatchObject({ status: 'draft', qty: 1, done: false, meta: { v: 1 }, tags: ['new'] });
    expect(api.body.due).toBe(new Date().toISOString().slice(0, 10));
    expect(api.body.seen_at >= before).toBe(true);
    const viaRest = await server.request('POST', '/rest/v1/posts', {
      headers: rest,
      json: { title: 'two', qty: null, done: true, tags: null },
    });
    expect(viaRest.status, viaRest.text).toBe(201);
    expect(viaRest.body[0]).toMatchObject({ status: 'draft', qty: null, done: true, tags: null, meta: { v: 1 } });
    // A required column sent as null is refused, not defaulted.
    const nulled = await server.request('POST', '/rest/v1/posts', {
      headers: rest,
      json: { title: 'x', status: null },
    });
    expect(nulled.status, nulled.text).toBe(400);
    expect(nulled.body).toMatchObject({ code: '23502' });
    // An update never applies defaults.
    const id = api.body.id;
    const patched = await server.request('PATCH', `/rest/v1/posts?id=eq.${id}`, { headers: rest, json: { qty: 5 } });
    expect(patched.body[0]).toMatchObject({ qty: 5, status: 'draft' });
  });

  it('fills defaults in an upsert`s new rows but never overwrites a column the upsert left out', async () => {
    const existing = await server.request('POST', '/rest/v1/posts', {
      headers: rest,
      json: { title: 'kept', status: 'published', qty: 7 },
    });
    const id = existing.body[0].id;
    const upserted = await server.request('POST', '/rest/v1/posts', {
      headers: { ...rest, prefer: 'return=representation,resolution=merge-duplicates' },
      json: [
        { id, title: 'kept, renamed' },
        { id: id + 100, title: 'new' },
      ],
    });
    expect(upserted.status, upserted.text).toBe(201);
    const byId = Object.fromEntries(upserted.body.map((r: { id: number }) => [r.id, r]));
    expect(byId[id]).toMatchObject({ title: 'kept, renamed', status: 'published', qty: 7 });
    expect(byId[id + 100]).toMatchObject({ title: 'new', status: 'draft', qty: 1 });
    for (const gone of [id, id + 100]) {
      await server.request('DELETE', `/rest/v1/posts?id=eq.${gone}`, { headers: rest });
    }
  });

  it('adds a required column with a default to a table with rows, in History and revertable', async () => {
    const res = await server.request('PATCH', `/api/tables/${tableId}`, {
      headers: alice.headers,
      json: { schema: { ...SCHEMA, priority: { type: 'number', required: true, default: 3 } } },
    });
    expect(res.status, res.text).toBe(200);
    const rows = await server.request('GET', '/rest/v1/posts?select=priority', { headers: rest });
    expect(rows.body).toEqual([{ priority: 3 }, { priority: 3 }]);
    // Changing only the default is a change of its own, with a line in the preview.
    const preview = await server.request('POST', `/api/tables/${tableId}/schema/preview`, {
      headers: alice.headers,
      json: { schema: { ...SCHEMA, priority: { type: 'number', required: true, default: 5 } } },
    });
    expect(preview.status, preview.text).toBe(200);
    expect(JSON.stringify(preview.body)).toContain('Set the default of \\"priority\\" to 5');
    const changed = await server.request('PATCH', `/api/tables/${tableId}`, {
      headers: alice.headers,
      json: { schema: { ...SCHEMA, priority: { type: 'number', required: true, default: 5 } } },
    });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body.schema.priority.default).toBe(5);
    const history = await server.request('GET', `/api/history?tableId=${tableId}&limit=1`, { headers: alice.headers });
    const entry = history.body.data[0];
    expect(entry.changeType).toBe('SCHEMA_UPDATE');
    const revert = await server.request('POST', `/api/history/${entry.id}/revert`, { headers: alice.headers });
    expect(revert.status, revert.text).toBe(200);
    const after = await server.request('GET', `/api/tables/${tableId}`, { headers: alice.headers });
    expect(after.body.schema.priority.default).toBe(3);
    const created = await server.request('POST', '/rest/v1/posts', { headers: rest, json: { title: 'three' } });
    expect(created.body[0].priority).toBe(3);
  });

  it('shows defaults in the OpenAPI document and makes them optional in the generated insert type', async () => {
    const doc = await server.request('GET', '/api/openapi.json', { headers: alice.headers });
    expect(doc.status, doc.text).toBe(200);
    const input = doc.body.components.schemas['posts.input'];
    expect(input.required).toEqual(['title']);
    expect(input.properties.status.default).toBe('draft');
    const types = await server.request('GET', '/api/types.ts', { headers: alice.headers });
    expect(types.status, types.text).toBe(200);
    const insert = types.text.slice(types.text.indexOf('Insert:'), types.text.indexOf('Update:'));
    expect(insert).toContain('status?: string');
    expect(insert).toContain('title: string');
  });

  it.each([
    ['a number default of a text column', { name: { type: 'text', default: 5 } }, 'must be text'],
    ['text default of a number column', { qty: { type: 'number', default: 'five' } }, 'must be a number'],
    ['an impossible date', { due: { type: 'date_only', default: '2025-02-30' } }, 'YYYY-MM-DD'],
    ['now on a text column', { at: { type: 'date', default: 'soon' } }, 'or \\"now\\"'],
    ['an object default of an array column', { tags: { type: 'array', default: { a: 1 } } }, 'JSON array'],
    ['NUL', { name: { type: 'text', default: 'a\u0000b' } }, 'NUL'],
    ['an oversized default', { name: { type: 'text', default: 'x'.repeat(1001) } }, 'longer than 1000'],
  ])('refuses %s with 400', async (_what, schema, message) => {
    const name = `bad_${Math.random().toString(36).slice(2, 8)}`;
    const res = await server.request('POST', '/api/tables', { headers: alice.headers, json: { name, schema } });
    expect(res.status, res.text).toBe(400);
    expect(res.text).toContain(message);
    const change = await server.request('PATCH', `/api/tables/${tableId}`, {
      headers: alice.headers,
      json: { schema: { ...SCHEMA, ...schema } },
    });
    expect(change.status, change.text).toBe(400);
    const viaRest = await server.request('POST', '/rest/v1/tables', {
      headers: rest,
      json: { name, description: '', schema },
    });
    expect(viaRest.status, viaRest.text).toBe(400);
  });
});
