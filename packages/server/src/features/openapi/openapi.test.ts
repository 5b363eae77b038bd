import { OpenAPIClientAxios } from 'openapi-client-axios';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiScenario, loginWithCookie, runScenario, startAuthServer, users } from '../../testing/auth.fixtures.js';
import { expectValidOpenApi, type ResolvedDocument, schemaErrors } from '../../testing/openapi.fixtures.js';
import { createTable, type KeyedUser, signUpWithKey } from '../../testing/public-api.fixtures.js';
import { type TestServer, testDialects } from '../../testing/test-server.js';

// GET /api/openapi.json on a real server: who may read it, that it is valid OpenAPI 3.1 of the caller's own
// tables only, and that a generic OpenAPI client, configured from nothing but the document and an API key,
// creates, reads, lists, changes and deletes records, every answer matching the document's schemas.

const NOTES_SCHEMA = { body: { type: 'text', required: true }, pinned: { type: 'boolean' }, due: { type: 'date' } };

describe.each(testDialects)('GET /api/openapi.json on %s', (dialect) => {
  let server: TestServer;
  let alice: KeyedUser;
  let bob: KeyedUser;

  beforeAll(async () => {
    server = await startAuthServer(dialect);
    alice = await signUpWithKey(server, users.alice);
    bob = await signUpWithKey(server, users.bob);
    await createTable(server, alice, 'items');
    await createTable(server, alice, 'notes', NOTES_SCHEMA);
    await createTable(server, bob, 'gadgets', { label: { type: 'text' } });
  });
  afterAll(() => server.close());

  const fetchDocument = async (user: KeyedUser) => {
    const res = await server.request('GET', '/api/openapi.json', { headers: user.keyHeaders });
    expect(res.status).toBe(200);
    return res.body;
  };

  const scenarios: ApiScenario[] = [
    {
      name: 'no credentials',
      method: 'GET',
      url: '/api/openapi.json',
      status: 401,
      expected: { code: 'unauthorized', message: 'Missing or invalid API key' },
      expectedHeaders: { 'www-authenticate': 'Bearer' },
    },
    {
      name: 'an unknown API key',
      method: 'GET',
      url: '/api/openapi.json',
      headers: { authorization: `Bearer bsk_${'x'.repeat(43)}` },
      status: 401,
      expected: { code: 'invalid_api_key' },
    },
    {
      name: 'the service key (no account)',
      method: 'GET',
      url: '/api/openapi.json',
      headers: () => ({ authorization: `Bearer ${server.serviceKey}` }),
      status: 403,
      expected: { code: 'forbidden' },
    },
    {
      name: 'an API key',
      method: 'GET',
      url: '/api/openapi.json',
      headers: () => alice.keyHeaders,
      status: 200,
      expected: { openapi: '3.1.0' },
      expectedHeaders: { 'cache-control': 'private, no-store', 'content-type': /application\/json/ },
    },
    {
      name: "a signed-in user's token",
      method: 'GET',
      url: '/api/openapi.json',
      headers: () => alice.tokenHeaders,
      status: 200,
      expected: { openapi: '3.1.0' },
    },
  ];
  it.each(scenarios)('$name → $status', async (scenario) => {
    await runScenario(server, scenario);
  });

  it('answers a console cookie session (a GET needs no CSRF token)', async () => {
    const cookie = await loginWithCookie(server, users.alice);
    const res = await server.request('GET', '/api/openapi.json', { headers: { cookie: cookie.cookie } });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.paths)).toContain('/api/table/items');
  });

  it("is valid OpenAPI 3.1 of the caller's own tables, served at this instance", async () => {
    const doc = await fetchDocument(alice);
    await expectValidOpenApi(doc);
    expect(doc.servers).toEqual([{ url: server.url }]);
    expect(Object.keys(doc.paths)).toEqual([
      '/api/table/items',
      '/api/table/items/{id}',
      '/api/table/notes',
      '/api/table/notes/{id}',
    ]);
    expect(doc.components.schemas.notes.properties.due).toMatchObject({ format: 'date-time' });
    expect(doc.components.schemas['notes.input'].required).toEqual(['body']);

    const bobs = await fetchDocument(bob);
    expect(Object.keys(bobs.paths)).toEqual(['/api/table/gadgets', '/api/table/gadgets/{id}']);
    expect(Object.keys(bobs.components.schemas)).toEqual([
      'api.Error',
      'api.DeleteResult',
      'gadgets',
      'gadgets.input',
      'gadgets.patch',
    ]);
  });

  it('documents every public route of the route table as served, each method at its path', async () => {
    const doc = await fetchDocument(alice);
    const served = server.app.routes
      .filter((route) => route.family === 'public' && route.url.startsWith('/api/table/:name'))
      .flatMap((route) => (Array.isArray(route.method) ? route.method : [route.method]).map((m) => [m, route.url]))
      .map(([method, url]) => `${method} ${url?.replace(':name', 'items').replace(':id', '{id}')}`);
    const documented = Object.entries(doc.paths)
      .filter(([path]) => path.startsWith('/api/table/items'))
      .flatMap(([path, item]) =>
        Object.keys(item as object)
          .filter((key) => key !== 'parameters')
          .map((method) => `${method.toUpperCase()} ${path}`),
      );
    expect(documented.sort()).toEqual(served.sort());
    expect(served).toHaveLength(6);
  });

  it('follows the tables as they change', async () => {
    await createTable(server, bob, 'widgets', { size: { type: 'number' } });
    const doc = await fetchDocument(bob);
    expect(doc.components.schemas.widgets.properties.size.type).toEqual(['number', 'null']);
  });

  describe('with a generic OpenAPI client', () => {
    let resolved: ResolvedDocument;
    // biome-ignore lint/suspicious/noExplicitAny: the client's operations are made at run time from the document.
    let client: any;

    beforeAll(async () => {
      const doc = await fetchDocument(alice);
      resolved = await expectValidOpenApi(doc);
      const api = new OpenAPIClientAxios({
        definition: doc,
        axiosConfigDefaults: { headers: { Authorization: `Bearer ${alice.apiKey}` } },
      });
      client = await api.init();
    });

    const expectMatches = (schema: string, value: unknown) => expect(schemaErrors(resolved, schema, value)).toBeNull();
    const failure = async (call: Promise<unknown>) => {
      try {
        await call;
      } catch (error) {
        return (error as { response: { status: number; data: unknown } }).response;
      }
      throw new Error('the call succeeded');
    };

    it('creates, reads, lists, replaces, updates and deletes a record', async () => {
      const created = await client.createNotes(null, { body: 'buy milk', pinned: true, due: '2025-05-01' });
      expect(created.status).toBe(201);
      expectMatches('notes', created.data);
      expect(created.data).toMatchObject({ body: 'buy milk', pinned: true, due: '2025-05-01T00:00:00.000Z' });
      const id = created.data.id;
      expect(created.headers.location).toBe(`/api/table/notes/${id}`);

      const read = await client.getNotes(id);
      expect(read.data).toEqual(created.data);

      await client.createNotes(null, { body: 'call bob' });
      const page = await client.listNotes({ limit: 1, orderBy: 'id', order: 'desc' });
      expect(page.data).toHaveLength(1);
      for (const record of page.data) expectMatches('notes', record);
      expect(page.headers).toMatchObject({ 'x-total-count': '2', 'x-page-limit': '1', 'x-page-offset': '0' });
      const filtered = await client.listNotes({ pinned: 'is.true' });
      expect(filtered.data.map((r: { id: number }) => r.id)).toEqual([id]);

      const replaced = await client.replaceNotes(id, { body: 'buy oat milk' });
      expectMatches('notes', replaced.data);
      expect(replaced.data).toMatchObject({ body: 'buy oat milk', pinned: null, due: null });
      const updated = await client.updateNotes(id, { pinned: false });
      expect(updated.data).toMatchObject({ body: 'buy oat milk', pinned: false });

      const deleted = await client.deleteNotes(id);
      expectMatches('api.DeleteResult', deleted.data);
      expect(deleted.data).toEqual({ success: true, message: 'Record deleted successfully' });
      const gone = await failure(client.getNotes(id));
      expect(gone.status).toBe(404);
      expectMatches('api.Error', gone.data);
    });

    it('gets the documented error bodies for a bad body and a duplicate', async () => {
      const missing = await failure(client.createItems(null, { qty: 1 }));
      expect(missing.status).toBe(400);
      expectMatches('api.Error', missing.data);
      await client.createItems(null, { name: 'one', sku: 'SKU-1' });
      const duplicate = await failure(client.createItems(null, { name: 'two', sku: 'SKU-1' }));
      expect(duplicate.status).toBe(409);
      expectMatches('api.Error', duplicate.data);
    });

    it("reaches only the key's own account: another account's table is not found", async () => {
      const res = await server.request('GET', '/api/table/gadgets', { headers: alice.keyHeaders });
      expect(res.status).toBe(404);
      expectMatches('api.Error', res.body);
    });
  });
});
