import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  appClient,
  createAppTable,
  type Developer,
  type EndUserClient,
  signUpEndUser,
  startDeveloper,
} from '../../testing/apps.fixtures.js';
import { startAuthServer, users } from '../../testing/auth.fixtures.js';
import { changesOf, closeClients } from '../../testing/realtime.fixtures.js';
import { type TestServer, testDialects } from '../../testing/test-server.js';

// Write functions, parameter defaults and overloads with the unmodified supabase-js: a function's INSERT, UPDATE or
// DELETE goes through the records service (history entries naming the caller, row counts, reference checks and
// cascades) and a definition's changes are in history and revertable.

interface Change {
  id: number;
  changeType: string;
  tableName: string;
  recordId: number | null;
  userId: string | null;
  previousState: Record<string, unknown> | null;
  newState: Record<string, unknown> | null;
}

describe.each(testDialects)('write functions with supabase-js on %s', (dialect) => {
  let server: TestServer;
  let dev: Developer;
  let other: Developer;
  let ann: EndUserClient;

  const define = (who: Developer, body: Record<string, unknown>) =>
    server.request('POST', '/api/functions/sql', { headers: who.headers, json: body });
  const history = async (): Promise<Change[]> =>
    (await server.request('GET', '/api/history?limit=100', { headers: dev.headers })).body.data;
  const revert = (id: number) => server.request('POST', `/api/history/${id}/revert`, { headers: dev.headers });

  beforeAll(async () => {
    server = await startAuthServer(dialect);
    dev = await startDeveloper(server, users.alice);
    other = await startDeveloper(server, users.bob);
    ann = await signUpEndUser(server, dev, 'ann@example.com');
    await createAppTable(server, dev, { name: 'authors', schema: { name: { type: 'text', required: true } } });
    await createAppTable(server, dev, {
      name: 'books',
      schema: {
        title: { type: 'text' },
        stock: { type: 'number' },
        author: { type: 'number', references: { table: 'authors', onDelete: 'cascade' } },
      },
    });
    await createAppTable(server, other, { name: 'vault', schema: { code: { type: 'text' } } });
    const { error } = await dev.client.from('authors').insert([{ name: 'Ada' }, { name: 'Bo' }]);
    expect(error).toBeNull();
    const fns = [
      {
        name: 'add_book',
        params: [
          { name: 'title', type: 'text' },
          { name: 'stock', type: 'number', default: 1 },
          { name: 'author', type: 'number', default: null },
        ],
        returns: { kind: 'row', table: 'books' },
        body: 'INSERT INTO books (title, stock, author) VALUES (:title, :stock, :author) RETURNING *',
        callRule: 'authenticated',
      },
      {
        name: 'sell',
        params: [
          { name: 'title', type: 'text' },
          { name: 'n', type: 'number', default: 1 },
        ],
        returns: { kind: 'rows', columns: [{ name: 'left', type: 'number' }] },
        body: 'UPDATE books AS b SET stock = b.stock - :n WHERE b.title = :title RETURNING stock AS left',
        callRule: 'public',
      },
      {
        name: 'drop_author',
        params: [{ name: 'name', type: 'text' }],
        returns: { kind: 'scalar', type: 'number' },
        body: 'DELETE FROM authors WHERE name = :name RETURNING id',
      },
      {
        name: 'copy_titles',
        returns: { kind: 'rows', columns: [{ name: 'title', type: 'text' }] },
        body: "INSERT INTO books (title, stock) SELECT name || ' (bio)', 0 FROM authors ORDER BY name RETURNING title",
      },
      // Overloads: `pick` by the names of the arguments.
      { name: 'pick', returns: { kind: 'scalar', type: 'text' }, body: "SELECT 'none'", callRule: 'public' },
      {
        name: 'pick',
        params: [{ name: 'a', type: 'number' }],
        returns: { kind: 'scalar', type: 'text' },
        body: "SELECT 'a'",
        callRule: 'public',
      },
      {
        name: 'pick',
        params: [
          { name: 'a', type: 'number' },
          { name: 'b', type: 'text', default: 'x' },
          { name: 'c', type: 'text' },
        ],
        returns: { kind: 'scalar', type: 'text' },
        body: "SELECT 'abc:' || :b",
        callRule: 'public',
      },
      {
        name: 'pick',
        params: [{ name: 'z', type: 'number', default: 2 }],
        returns: { kind: 'scalar', type: 'text' },
        body: "SELECT 'z'",
        callRule: 'public',
      },
    ];
    for (const fn of fns) {
      const res = await define(dev, fn);
      expect(res.status, `${fn.name}: ${res.text}`).toBe(201);
    }
  });

  afterAll(async () => {
    await closeClients(dev.client, ann.client);
    await server?.close();
  });

  it('inserts through the records path, with defaults, the caller in history and the count kept', async () => {
    const added = await ann.client.rpc('add_book', { title: 'Dune', stock: 3, author: 1 });
    expect(added.error).toBeNull();
    expect(added.data).toMatchObject({ id: expect.any(Number), title: 'Dune', stock: 3, author: 1 });
    const defaulted = await ann.client.rpc('add_book', { title: 'Emma' });
    expect(defaulted.data).toMatchObject({ title: 'Emma', stock: 1, author: null });
    const [latest] = await history();
    expect(latest).toMatchObject({ changeType: 'RECORD_CREATE', tableName: 'books', userId: ann.id });
    expect(latest?.newState).toMatchObject({ title: 'Emma', stock: 1 });
    const counted = await dev.client.from('books').select('*', { count: 'exact', head: true });
    expect(counted.count).toBe(2);
    // The reference is checked as a REST insert's is: no author 99.
    const dangling = await ann.client.rpc('add_book', { title: 'Nobody', author: 99 });
    expect(dangling.status).toBe(409);
    expect((await dev.client.from('books').select('id')).data).toHaveLength(2);
  });

  it('updates each record with its own new value, and answers what RETURNING gives', async () => {
    const anon = appClient(server, dev.app.anonKey);
    expect((await anon.rpc('sell', { title: 'Dune', n: 2 })).data).toEqual([{ left: 1 }]);
    expect((await anon.rpc('sell', { title: 'Dune' })).data).toEqual([{ left: 0 }]);
    expect((await anon.rpc('sell', { title: 'Nope' })).data).toEqual([]);
    const [latest] = await history();
    expect(latest).toMatchObject({ changeType: 'RECORD_UPDATE', tableName: 'books' });
    expect(latest?.previousState).toMatchObject({ stock: 1 });
    expect(latest?.newState).toMatchObject({ stock: 0 });
    // A write is never run by GET, as PostgREST's read-only transaction refuses it.
    const viaGet = await anon.rpc('sell', { title: 'Dune' }, { get: true });
    expect(viaGet).toMatchObject({
      status: 405,
      error: { code: '25006', message: 'cannot execute UPDATE in a read-only transaction' },
    });
    // .single() on a write that touches no record rolls it back and answers PGRST116.
    const single = await anon.rpc('sell', { title: 'Nope' }).single();
    expect(single.error?.code).toBe('PGRST116');
    // Filters, order, paging and the count read the records written, as a read function's rows.
    const kept = await anon.rpc('sell', { title: 'Dune', n: 0 }, { count: 'exact' }).gte('left', 0).select('left');
    expect(kept).toMatchObject({ data: [{ left: 0 }], count: 1, error: null });
    const none = await anon.rpc('sell', { title: 'Dune', n: 0 }, { count: 'exact' }).lt('left', 0);
    expect(none).toMatchObject({ data: [], count: 0, error: null });
    expect((await anon.rpc('sell', { title: 'Dune', n: 0 }).eq('nope', 1)).error?.code).toBe('42703');
  });

  it("sends a write's change events to realtime, as a REST write does", async () => {
    const { channel, inbox } = await changesOf(dev.client, 'sells', { event: 'UPDATE', table: 'books' });
    await appClient(server, dev.app.anonKey).rpc('sell', { title: 'Emma', n: 1 });
    expect(await inbox.next()).toMatchObject({
      eventType: 'UPDATE',
      new: { title: 'Emma', stock: 0 },
      old: { stock: 1 },
    });
    await dev.client.removeChannel(channel);
  });

  it('inserts the rows of a SELECT and deletes with the cascade recorded; a revert brings them back', async () => {
    // .single() on a write of two records answers PGRST116 and writes nothing.
    const before = (await dev.client.from('books').select('*', { count: 'exact', head: true })).count;
    expect((await dev.client.rpc('copy_titles').single()).error?.code).toBe('PGRST116');
    expect((await dev.client.from('books').select('*', { count: 'exact', head: true })).count).toBe(before);
    const copied = await dev.client.rpc('copy_titles');
    expect(copied.data).toEqual([{ title: 'Ada (bio)' }, { title: 'Bo (bio)' }]);
    const dropped = await dev.client.rpc('drop_author', { name: 'Ada' });
    expect(dropped.data).toBe(1);
    const changes = await history();
    const deleteOfAda = changes.find((c) => c.changeType === 'RECORD_DELETE' && c.tableName === 'authors');
    const cascaded = changes.filter((c) => c.changeType === 'RECORD_DELETE' && c.tableName === 'books');
    expect(deleteOfAda?.previousState).toMatchObject({ name: 'Ada' });
    expect(cascaded.map((c) => c.previousState?.title)).toContain('Dune');
    expect((await dev.client.from('books').select('title').eq('title', 'Dune')).data).toEqual([]);
    const undone = await revert(deleteOfAda?.id ?? 0);
    expect(undone.status, undone.text).toBe(200);
    expect((await dev.client.from('authors').select('name').eq('id', 1)).data).toEqual([{ name: 'Ada' }]);
  });

  it('picks an overload by the argument names, as PostgREST does', async () => {
    const anon = appClient(server, dev.app.anonKey);
    const a = await anon.rpc('pick', { a: 1 });
    expect(a.data, JSON.stringify(a)).toBe('a');
    expect((await anon.rpc('pick', { a: 1, c: 'y' })).data).toBe('abc:x');
    expect((await anon.rpc('pick', { a: 1, b: 'q', c: 'y' }, { get: true })).data).toBe('abc:q');
    expect((await anon.rpc('pick', { z: 5 })).data).toBe('z');
    // pick() and pick(z default 2) both take no arguments.
    const ambiguous = await anon.rpc('pick');
    expect(ambiguous).toMatchObject({ status: 300, error: { code: 'PGRST203' } });
    expect(ambiguous.error?.message).toBe(
      'Could not choose the best candidate function between: public.pick(), public.pick(z => float8)',
    );
    expect(ambiguous.error?.hint).toBe(
      'Try renaming the parameters or the function itself in the database so function overloading can be resolved',
    );
    const none = await anon.rpc('pick', { q: 1 });
    expect(none).toMatchObject({ status: 404, error: { code: 'PGRST202' } });
    expect(none.error?.message).toBe('Could not find the function public.pick(q) in the schema cache');
    const mistyped = await anon.rpc('pick', { a: 'one' });
    expect(mistyped).toMatchObject({ status: 400, error: { code: '22P02' } });
    // Addressed by name, an overloaded function is ambiguous: its id names it.
    const byName = await server.request('GET', '/api/functions/sql/pick', { headers: dev.headers });
    expect(byName.status).toBe(409);
  });

  it('refuses write definitions that reach beyond the account, and bad defaults', async () => {
    const scalar = { returns: { kind: 'scalar', type: 'number' } };
    const refused = [
      'DELETE FROM vault RETURNING id',
      'INSERT INTO missing (title) VALUES (1) RETURNING id',
      'INSERT INTO books (title) SELECT code FROM vault RETURNING id',
      'UPDATE books SET stock = (SELECT count(*) FROM accounts) RETURNING id',
      'UPDATE books SET stock = 1 FROM vault RETURNING books.id',
      'DELETE FROM books USING pg_catalog.pg_tables RETURNING id',
      'DELETE FROM public.books RETURNING id',
      'DELETE FROM books',
      'INSERT INTO books VALUES (1) RETURNING id',
      'INSERT INTO books (title) VALUES (1) ON CONFLICT DO NOTHING RETURNING id',
      'INSERT INTO books (created_at) VALUES (CURRENT_TIMESTAMP) RETURNING id',
      'UPDATE books SET nope = 1 RETURNING id',
      'UPDATE books SET stock = 1 RETURNING stock + 1',
      'WITH x AS (SELECT 1) DELETE FROM books RETURNING id',
      'DELETE FROM books RETURNING id, title',
      'DELETE FROM books WHERE title = :nope RETURNING id',
      'DELETE FROM books RETURNING id \u0000',
    ];
    for (const body of refused) {
      const res = await define(dev, { name: 'bad', ...scalar, body });
      expect(res.status, `${body}: ${res.text}`).toBe(400);
    }
    const badDefault = await define(dev, {
      name: 'bad',
      ...scalar,
      params: [{ name: 'n', type: 'number', default: 'many' }],
      body: 'SELECT :n',
    });
    expect(badDefault.status).toBe(400);
    const oversize = await define(dev, { name: 'bad', ...scalar, body: `DELETE FROM books${' '.repeat(10_000)}` });
    expect(oversize.status).toBe(400);
    const nul = await ann.client.rpc('add_book', { title: 'a\u0000b' });
    expect(nul.status).toBe(400);
    const mistyped = await ann.client.rpc('add_book', { title: 'x', stock: 'lots' });
    expect(mistyped).toMatchObject({ status: 400, error: { code: '22P02' } });
    const missing = await ann.client.rpc('add_book', { stock: 1 });
    expect(missing).toMatchObject({ status: 404, error: { code: 'PGRST202' } });
    const anon = await appClient(server, dev.app.anonKey).rpc('add_book', { title: 'x' });
    expect(anon).toMatchObject({ status: 401, error: { code: '42501' } });
  });

  it('records definitions in history; a revert of a delete brings the function back', async () => {
    const created = await define(dev, {
      name: 'twice',
      params: [{ name: 'n', type: 'number' }],
      returns: { kind: 'scalar', type: 'number' },
      body: 'SELECT :n * 2',
      callRule: 'public',
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ mode: 'read' });
    const id = created.body.id;
    const changed = await server.request('PUT', `/api/functions/sql/${id}`, {
      headers: dev.headers,
      json: { ...created.body, body: 'SELECT :n * 3', id: undefined },
    });
    expect(changed.status).toBe(400);
    const replaced = await server.request('PUT', `/api/functions/sql/${id}`, {
      headers: dev.headers,
      json: {
        name: 'twice',
        params: [{ name: 'n', type: 'number' }],
        returns: { kind: 'scalar', type: 'number' },
        body: 'SELECT :n * 3',
        callRule: 'public',
      },
    });
    expect(replaced.status).toBe(200);
    expect((await dev.client.rpc('twice', { n: 2 })).data).toBe(6);
    expect((await server.request('DELETE', `/api/functions/sql/${id}`, { headers: dev.headers })).status).toBe(204);
    const entries = (await history()).filter((c) => c.tableName === 'twice');
    expect(entries.map((c) => c.changeType)).toEqual(['FUNCTION_DELETE', 'FUNCTION_UPDATE', 'FUNCTION_CREATE']);
    const [deletion, update] = entries;
    expect((await revert(deletion?.id ?? 0)).status).toBe(200);
    expect((await dev.client.rpc('twice', { n: 2 })).data).toBe(6);
    expect((await revert(update?.id ?? 0)).status).toBe(200);
    expect((await dev.client.rpc('twice', { n: 2 })).data).toBe(4);
    const back = await server.request('GET', `/api/functions/sql/${id}`, { headers: dev.headers });
    expect(back.body).toMatchObject({ id, name: 'twice', body: 'SELECT :n * 2' });
    // A revert that later changes conflict with is refused.
    expect((await revert(update?.id ?? 0)).status).toBe(409);
    // Another account reaches neither the function nor its entries; reverting the creation drops it.
    const theirs = await server.request('GET', `/api/functions/sql/${id}`, { headers: other.headers });
    expect(theirs.status).toBe(404);
    const theirRevert = await server.request('POST', `/api/history/${update?.id}/revert`, { headers: other.headers });
    expect(theirRevert.status).toBe(404);
    expect((await server.request('GET', '/api/functions/sql/99999', { headers: dev.headers })).status).toBe(404);
    const creation = entries.find((c) => c.changeType === 'FUNCTION_CREATE');
    // Restoring to the creation puts back the definition it made, as a table's restore does.
    const again = await server.request('PUT', `/api/functions/sql/${id}`, {
      headers: dev.headers,
      json: {
        name: 'twice',
        params: [{ name: 'n', type: 'number' }],
        returns: back.body.returns,
        body: 'SELECT :n * 5',
      },
    });
    expect(again.status).toBe(200);
    const restored = await server.request('POST', `/api/history/${creation?.id}/restore`, { headers: dev.headers });
    expect(restored.status, restored.text).toBe(200);
    expect((await dev.client.rpc('twice', { n: 2 })).data).toBe(4);
    expect((await revert(creation?.id ?? 0)).status).toBe(200);
    expect((await dev.client.rpc('twice', { n: 2 })).error?.code).toBe('PGRST202');
  });

  it('gives defaulted parameters as optional arguments in the generated types', async () => {
    const res = await server.request('GET', '/api/types.ts', { headers: dev.headers });
    expect(res.status).toBe(200);
    expect(res.text).toContain('add_book: {');
    expect(res.text).toContain('Args: { title: string; stock?: number; author?: number }');
    expect(res.text).toMatch(/pick:\n\s+\| \{/);
  });
});
