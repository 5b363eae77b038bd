import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADD_THEM,
  appClient,
  createAppTable,
  type Developer,
  defineSqlFunctions,
  type EndUserClient,
  OWN_ROWS,
  signUpEndUser,
  startDeveloper,
} from '../../testing/apps.fixtures.js';
import { startAuthServer, users } from '../../testing/auth.fixtures.js';
import { type TestServer, testDialects } from '../../testing/test-server.js';

// rpc with the unmodified supabase-js: SQL functions defined through /api/functions/sql and called at
// /rest/v1/rpc/<name> — scalars, one row, sets with select/filters/order/limit/count, GET calls, the call rules,
// :auth_uid — and the bad input of both the definition and the call.

describe.each(testDialects)('rpc with supabase-js on %s', (dialect) => {
  let server: TestServer;
  let dev: Developer;
  let other: Developer;
  let ann: EndUserClient;

  const define = (who: Developer, body: Record<string, unknown>) =>
    server.request('POST', '/api/functions/sql', { headers: who.headers, json: body });

  beforeAll(async () => {
    server = await startAuthServer(dialect);
    dev = await startDeveloper(server, users.alice);
    other = await startDeveloper(server, users.bob);
    ann = await signUpEndUser(server, dev, 'ann@example.com');
    await createAppTable(server, dev, {
      name: 'books',
      schema: { title: { type: 'text' }, pages: { type: 'number' }, owner: { type: 'text' } },
      access: OWN_ROWS,
    });
    await createAppTable(server, other, { name: 'vault', schema: { code: { type: 'text' } } });
    const { error } = await dev.client.from('books').insert([
      { title: 'Dune', pages: 412, owner: ann.id },
      { title: 'Emma', pages: 474, owner: 'someone' },
      { title: 'Ulysses', pages: 730, owner: ann.id },
    ]);
    expect(error).toBeNull();
    await defineSqlFunctions(server, dev, [
      ADD_THEM,
      {
        name: 'long_books',
        params: [{ name: 'min_pages', type: 'number' }],
        returns: { kind: 'rows', table: 'books' },
        body: 'SELECT * FROM books WHERE pages >= :min_pages ORDER BY pages',
        callRule: 'public',
      },
      {
        name: 'book_titled',
        params: [{ name: 'title', type: 'text' }],
        returns: {
          kind: 'row',
          columns: [
            { name: 'title', type: 'text' },
            { name: 'pages', type: 'number' },
          ],
        },
        body: 'SELECT b.title, b.pages FROM books b WHERE b.title = :title',
        callRule: 'authenticated',
      },
      {
        name: 'my_page_count',
        returns: { kind: 'scalar', type: 'number' },
        body: "-- the caller's own books\nSELECT coalesce(sum(pages), 0) FROM books WHERE owner = :auth_uid",
        callRule: 'authenticated',
      },
      {
        name: 'book_count',
        returns: { kind: 'scalar', type: 'number' },
        body: 'SELECT count(*) FROM books',
      },
      {
        name: 'books_since',
        params: [
          { name: 'since', type: 'date' },
          { name: 'counted', type: 'boolean' },
        ],
        returns: { kind: 'scalar', type: 'number' },
        body: 'SELECT count(*) FROM books WHERE created_at >= :since AND :counted',
        callRule: 'public',
      },
      {
        name: 'echo',
        params: [{ name: 'payload', type: 'json' }],
        returns: { kind: 'scalar', type: 'json' },
        body: 'SELECT :payload',
        callRule: 'public',
      },
    ]);
  });

  afterAll(async () => {
    await server?.close();
  });

  it('calls a scalar function with POST and with GET', async () => {
    expect(await dev.client.rpc('add_them', { a: 2, b: 3 })).toMatchObject({ data: 5, error: null, status: 200 });
    const anon = appClient(server, dev.app.anonKey);
    expect((await anon.rpc('add_them', { a: 1.5, b: 1 }, { get: true })).data).toBe(2.5);
  });

  it('returns a set of rows with select, filters, order, limit and count', async () => {
    const anon = appClient(server, dev.app.anonKey);
    const all = await anon.rpc('long_books', { min_pages: 450 });
    expect(all.error).toBeNull();
    expect(all.data?.map((b: { title: string }) => b.title)).toEqual(['Emma', 'Ulysses']);
    expect(all.data?.[0]).toMatchObject({ id: expect.any(Number), pages: 474, created_at: expect.any(String) });
    const narrowed = await anon
      .rpc('long_books', { min_pages: 0 }, { count: 'exact' })
      .select('title')
      .ilike('title', '%u%')
      .order('title', { ascending: false })
      .limit(1);
    expect(narrowed).toMatchObject({ data: [{ title: 'Ulysses' }], count: 2, error: null });
    const single = await anon.rpc('long_books', { min_pages: 700 }).single();
    expect(single.data).toMatchObject({ title: 'Ulysses' });
    const viaGet = await anon.rpc('long_books', { min_pages: 700 }, { get: true }).select('title');
    expect(viaGet.data).toEqual([{ title: 'Ulysses' }]);
    const headOnly = await anon.rpc('long_books', { min_pages: 0 }, { head: true, count: 'exact' });
    expect(headOnly).toMatchObject({ count: 3, error: null });
  });

  it('runs as the owner under the call rule, with the caller id in :auth_uid', async () => {
    const anon = appClient(server, dev.app.anonKey);
    expect((await ann.client.rpc('book_titled', { title: 'Emma' })).data).toEqual({ title: 'Emma', pages: 474 });
    expect((await ann.client.rpc('book_titled', { title: 'Nope' })).data).toBeNull();
    expect((await ann.client.rpc('my_page_count')).data).toBe(412 + 730);
    const refused = await anon.rpc('book_titled', { title: 'Emma' });
    expect(refused).toMatchObject({ status: 401, error: { code: '42501' } });
    const nobody = await ann.client.rpc('book_count');
    expect(nobody).toMatchObject({ status: 403, error: { code: '42501' } });
    expect((await dev.client.rpc('book_count')).data).toBe(3);
    const service = appClient(server, dev.app.serviceKey);
    expect((await service.rpc('book_count')).data).toBe(3);
  });

  it('binds dates and booleans as their types on the engine', async () => {
    const anon = appClient(server, dev.app.anonKey);
    expect((await anon.rpc('books_since', { since: '2000-01-01', counted: true })).data).toBe(3);
    expect((await anon.rpc('books_since', { since: '2999-01-01T00:00:00Z', counted: true })).data).toBe(0);
    expect((await anon.rpc('books_since', { since: '2000-01-01', counted: false })).data).toBe(0);
    expect((await anon.rpc('books_since', { since: '2000-01-01', counted: 'true' }, { get: true })).data).toBe(3);
    expect((await anon.rpc('books_since', { since: 'yesterday', counted: true })).status).toBe(400);
  });

  it('passes the whole body with Prefer: params=single-object', async () => {
    const res = await server.request('POST', '/rest/v1/rpc/echo', {
      headers: { apikey: dev.app.anonKey, prefer: 'params=single-object' },
      json: { x: [1, 'two'] },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ x: [1, 'two'] });
  });

  it('answers bad calls with PostgREST errors, never a 500', async () => {
    const anon = appClient(server, dev.app.anonKey);
    const unknown = await anon.rpc('nope', { a: 1 });
    expect(unknown).toMatchObject({ status: 404, error: { code: 'PGRST202' } });
    expect(unknown.error?.details).toContain('Searched for the function public.nope with parameters a');
    const missing = await anon.rpc('add_them', { a: 1 });
    expect(missing.error).toMatchObject({
      code: 'PGRST202',
      hint: 'Perhaps you meant to call the function public.add_them(a, b)',
    });
    expect((await anon.rpc('add_them', { a: 1, b: 2, c: 3 })).error?.code).toBe('PGRST202');
    const typed = await anon.rpc('add_them', { a: 'x', b: 1 });
    expect(typed).toMatchObject({ status: 400, error: { code: '22P02' } });
    const nul = await anon.rpc('long_books', { min_pages: '\u0000' });
    expect(nul.status).toBe(400);
    expect((await ann.client.rpc('book_titled', { title: 'a\u0000b' })).status).toBe(400);
    const huge = await ann.client.rpc('book_titled', { title: 'x'.repeat(200_000) });
    expect(huge).toMatchObject({ data: null, error: null });
    const injection = await ann.client.rpc('book_titled', { title: "x' OR '1'='1" });
    expect(injection).toMatchObject({ data: null, error: null });
    const column = await anon.rpc('long_books', { min_pages: 0 }).select('nope');
    expect(column).toMatchObject({ status: 400, error: { code: '42703' } });
    const theirs = await appClient(server, other.app.anonKey).rpc('add_them', { a: 1, b: 2 });
    expect(theirs).toMatchObject({ status: 404, error: { code: 'PGRST202' } });
    const put = await server.request('PUT', '/rest/v1/rpc/add_them', {
      headers: { apikey: dev.app.anonKey },
      json: {},
    });
    expect(put.status).toBe(405);
    const array = await server.request('POST', '/rest/v1/rpc/add_them', {
      headers: { apikey: dev.app.anonKey },
      json: [1],
    });
    expect(array.status).toBe(400);
  });

  it('refuses definitions that reach beyond the account or are not one SELECT', async () => {
    const scalar = { returns: { kind: 'scalar', type: 'number' }, callRule: 'public' };
    const refused = [
      'SELECT count(*) FROM vault',
      'SELECT count(*) FROM user_tables',
      'SELECT count(*) FROM accounts',
      'SELECT count(*) FROM sqlite_master',
      'SELECT count(*) FROM pg_catalog.pg_tables',
      'SELECT count(*) FROM public.books',
      'DELETE FROM books',
      'DELETE FROM vault RETURNING id',
      'WITH gone AS (DELETE FROM books RETURNING id) SELECT count(*) FROM gone',
      'SELECT 1; SELECT 2',
      "SELECT length(current_setting('server_version'))",
      'SELECT pg_sleep(1)',
      "SELECT count(*) FROM books WHERE title = E'x'",
      'SELECT count(*) FROM books WHERE [title] = 1',
      'SELECT :unknown',
      'SELECT $1',
      '',
      'SELECT * FROM books FOR UPDATE',
      'SELECT 1 \u0000',
    ];
    for (const body of refused) {
      const res = await define(dev, { name: 'bad', ...scalar, body });
      expect(res.status, `${body}: ${res.text}`).toBe(400);
    }
    // PostgreSQL's comments nest and SQLite's do not: the statement that runs is rebuilt without them.
    const nested = 'SELECT count(*) FROM books /* /* */ , sqlite_master --*/';
    expect((await define(dev, { name: 'nested', ...scalar, body: nested })).status).toBe(201);
    expect((await dev.client.rpc('nested')).data).toBe(3);
    const cases: Array<[Record<string, unknown>, number]> = [
      [
        {
          name: 'add_them',
          ...scalar,
          params: [
            { name: 'b', type: 'number' },
            { name: 'a', type: 'text' },
          ],
          body: 'SELECT 1',
        },
        409,
      ],
      [{ name: '1bad', ...scalar, body: 'SELECT 1' }, 400],
      [{ name: 'x', returns: { kind: 'rows' }, body: 'SELECT 1' }, 400],
      [{ name: 'x', returns: { kind: 'rows', table: 'vault' }, body: 'SELECT 1 AS id' }, 400],
      [{ name: 'x', ...scalar, params: [{ name: 'auth_uid', type: 'text' }], body: 'SELECT 1' }, 400],
      [{ name: 'x', ...scalar, params: [{ name: 'a', type: 'money' }], body: 'SELECT 1' }, 400],
      [{ name: 'x', ...scalar, body: 'x'.repeat(10_001) }, 400],
      [{ name: 'x', ...scalar, body: 'SELECT 1', extra: true }, 400],
      [
        { name: 'x', returns: { kind: 'rows', columns: [{ name: 'missing', type: 'text' }] }, body: 'SELECT 1 AS n' },
        400,
      ],
    ];
    for (const [body, status] of cases) {
      const res = await define(dev, body);
      expect(res.status, `${JSON.stringify(body).slice(0, 80)}: ${res.text}`).toBe(status);
    }
    // Another account's function is just as unknown to the definition API.
    expect((await server.request('GET', '/api/functions/sql/add_them', { headers: other.headers })).status).toBe(404);
    expect((await server.request('DELETE', '/api/functions/sql/add_them', { headers: other.headers })).status).toBe(
      404,
    );
    expect((await server.request('GET', '/api/functions/sql')).status).toBe(401);
  });

  it('lists, replaces and drops functions', async () => {
    const list = await server.request('GET', '/api/functions/sql', { headers: dev.headers });
    expect(list.status).toBe(200);
    expect(list.body.map((f: { name: string }) => f.name)).toContain('add_them');
    const replaced = await server.request('PUT', '/api/functions/sql/book_count', {
      headers: dev.headers,
      json: {
        name: 'books_total',
        returns: { kind: 'scalar', type: 'number' },
        body: 'SELECT count(*) + 100 FROM books',
      },
    });
    expect(replaced.status, replaced.text).toBe(200);
    expect((await dev.client.rpc('books_total')).data).toBe(103);
    expect((await server.request('DELETE', '/api/functions/sql/books_total', { headers: dev.headers })).status).toBe(
      204,
    );
    expect((await dev.client.rpc('books_total')).error?.code).toBe('PGRST202');
  });
});
