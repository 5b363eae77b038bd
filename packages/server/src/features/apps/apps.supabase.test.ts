import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  appClient,
  appKeyHeaders,
  createSampleTables,
  type Developer,
  type EndUserClient,
  OWN_ROWS,
  signUpEndUser,
  startDeveloper,
} from '../../testing/apps.fixtures.js';
import { startAuthServer, users } from '../../testing/auth.fixtures.js';
import { type TestServer, testDialects } from '../../testing/test-server.js';

// A real multi-user app with the unmodified supabase-js and the app's anon key (issue "Apps with their own users"):
// two end users sign up, each keeps their own todos under `own rows` rules, a signed-out visitor reads a public
// table and nothing of a private one, and the developer sees everything. Rows the rules hide behave as under
// PostgreSQL's row-level security: empty reads, 0-row updates and deletes, 42501 for a refused insert.

describe.each(testDialects)('an app with its own users, through supabase-js, on %s', (dialect) => {
  let server: TestServer;
  let dev: Developer;
  let alice: EndUserClient;
  let bob: EndUserClient;
  let todosId: number;

  beforeAll(async () => {
    server = await startAuthServer(dialect);
    dev = await startDeveloper(server, users.alice);
    todosId = await createSampleTables(server, dev);
    await dev.client
      .from('notices')
      .insert([{ body: 'open today' }, { body: 'closed sunday' }])
      .throwOnError();
    await dev.client.from('recipes').insert({ body: 'the recipe' }).throwOnError();
    alice = await signUpEndUser(server, dev, 'ann@example.com');
    bob = await signUpEndUser(server, dev, 'ben@example.com');
  });
  afterAll(() => server.close());

  it('gives each end user their own todos: inserted as theirs, read and counted only by them', async () => {
    const mine = await alice.client
      .from('todos')
      .insert([{ title: 'milk' }, { title: 'eggs' }])
      .select();
    expect(mine.error).toBeNull();
    expect(mine.data?.map((row) => row.owner)).toEqual([alice.id, alice.id]);
    await bob.client.from('todos').insert({ title: 'bread', done: false }).throwOnError();

    const aliceRows = await alice.client.from('todos').select('title, owner').order('id');
    expect(aliceRows.data).toEqual([
      { title: 'milk', owner: alice.id },
      { title: 'eggs', owner: alice.id },
    ]);
    const bobRows = await bob.client.from('todos').select('title');
    expect(bobRows.data).toEqual([{ title: 'bread' }]);

    const aliceCount = await alice.client.from('todos').select('*', { count: 'exact', head: true });
    expect(aliceCount).toMatchObject({ count: 2, status: 200, error: null });
    const bobCount = await bob.client.from('todos').select('id', { count: 'exact' }).range(0, 0);
    expect(bobCount).toMatchObject({ count: 1, error: null });
    expect(bobCount.data).toHaveLength(1);
  });

  it("never lets one user reach another user's rows: 0 rows updated or deleted, nothing read", async () => {
    const { data: target } = await alice.client.from('todos').select('id').eq('title', 'milk').single();
    const id = target?.id;
    expect(typeof id).toBe('number');

    const seen = await bob.client.from('todos').select().eq('id', id);
    expect(seen).toMatchObject({ data: [], error: null });
    const single = await bob.client.from('todos').select().eq('id', id).single();
    expect(single.status).toBe(406);
    expect(single.error?.code).toBe('PGRST116');

    const updated = await bob.client.from('todos').update({ title: 'stolen' }).eq('id', id).select();
    expect(updated).toMatchObject({ data: [], error: null });
    const deleted = await bob.client.from('todos').delete().eq('id', id).select();
    expect(deleted).toMatchObject({ data: [], error: null });
    const all = await bob.client.from('todos').delete().gte('id', 0).select('title');
    expect(all.data).toEqual([{ title: 'bread' }]);

    const still = await alice.client.from('todos').select('title').eq('id', id).single();
    expect(still.data).toEqual({ title: 'milk' });
  });

  it('refuses a forged owner column with 403 42501, on insert, upsert and update', async () => {
    const forged = await bob.client.from('todos').insert({ title: 'fake', owner: alice.id });
    expect(forged.status).toBe(403);
    expect(forged.error).toMatchObject({
      code: '42501',
      message: 'new row violates row-level security policy for table "todos"',
    });
    const { data: own } = await alice.client.from('todos').select('id').eq('title', 'eggs').single();
    const upsert = await bob.client.from('todos').upsert({ id: own?.id, title: 'taken' });
    expect(upsert.status).toBe(403);
    expect(upsert.error?.code).toBe('42501');
    const { data: bread } = await bob.client.from('todos').insert({ title: 'jam' }).select('id').single();
    const give = await bob.client.from('todos').update({ owner: alice.id }).eq('id', bread?.id);
    expect(give.status).toBe(403);
    expect(give.error?.code).toBe('42501');
    const keep = await bob.client
      .from('todos')
      .update({ done: true, owner: bob.id })
      .eq('id', bread?.id)
      .select('done');
    expect(keep.data).toEqual([{ done: true }]);
    const aliceTitles = await alice.client.from('todos').select('title').order('id');
    expect(aliceTitles.data).toEqual([{ title: 'milk' }, { title: 'eggs' }]);
  });

  it('lets a signed-out visitor read a public table and nothing of a private one', async () => {
    const visitor = appClient(server, dev.app.anonKey);
    const notices = await visitor.from('notices').select('body').order('id');
    expect(notices.data).toEqual([{ body: 'open today' }, { body: 'closed sunday' }]);
    const recipes = await visitor.from('recipes').select('*', { count: 'exact' });
    expect(recipes).toMatchObject({ data: [], count: 0, error: null });
    const todos = await visitor.from('todos').select();
    expect(todos).toMatchObject({ data: [], error: null });
    const write = await visitor.from('notices').insert({ body: 'spam' });
    expect(write.status).toBe(401);
    expect(write.error?.code).toBe('42501');
    // Signed in is not enough for a `nobody` table either.
    expect((await alice.client.from('recipes').select()).data).toEqual([]);
  });

  it('keeps `authenticated` tables to signed-in users and refuses rows a write may not return', async () => {
    const visitor = appClient(server, dev.app.anonKey);
    expect((await visitor.from('board').insert({ body: 'hi' })).status).toBe(401);
    await alice.client.from('board').insert({ body: 'from ann' }).throwOnError();
    expect((await bob.client.from('board').select('body')).data).toEqual([{ body: 'from ann' }]);
    expect((await visitor.from('board').select()).data).toEqual([]);

    // Anyone may drop a note in the inbox, nobody may read it back (not even in the insert's answer).
    expect((await visitor.from('inbox').insert({ body: 'note' })).status).toBe(201);
    const returned = await visitor.from('inbox').insert({ body: 'peek' }).select();
    expect(returned.status).toBe(401);
    expect(returned.error?.code).toBe('42501');
    const inbox = await dev.client.from('inbox').select('body');
    expect(inbox.data).toEqual([{ body: 'note' }]);
  });

  it('shows the developer every row: console token, app service key and API key', async () => {
    const all = await dev.client.from('todos').select('title').order('id');
    expect(all.data?.map((row) => row.title)).toEqual(['milk', 'eggs', 'jam']);
    const service = appClient(server, dev.app.serviceKey);
    const viaService = await service.from('todos').select('title', { count: 'exact' });
    expect(viaService.count).toBe(3);
    const key = await server.request('POST', '/api/keys', { headers: dev.headers, json: { name: 'server' } });
    const viaKey = await server.request('GET', '/api/table/todos', {
      headers: { authorization: `Bearer ${key.body.key}` },
    });
    expect(viaKey.status).toBe(200);
    expect(viaKey.headers.get('x-total-count')).toBe('3');
    const recipes = await service.from('recipes').select('body');
    expect(recipes.data).toEqual([{ body: 'the recipe' }]);
  });

  it("records end users' writes in history under their id, and the console lists them", async () => {
    const res = await server.request('GET', `/api/history?tableId=${todosId}`, { headers: dev.headers });
    expect(res.status).toBe(200);
    const creators = new Set(
      (res.body.data as Array<{ changeType: string; userId: string }>)
        .filter((change) => change.changeType === 'RECORD_CREATE')
        .map((change) => change.userId),
    );
    expect(creators).toEqual(new Set([alice.id, bob.id]));
    const named = (res.body.data as Array<{ userId: string; appUser: { name: string } | null }>).find(
      (change) => change.userId === alice.id,
    );
    expect(named?.appUser).toEqual({ id: alice.id, name: 'ann@example.com' });
    const activity = await server.request('GET', '/api/activity?limit=100', { headers: dev.headers });
    const byUsers = (activity.body.data as Array<{ resource: string; details: { by?: { endUserId: string } } }>)
      .filter((entry) => entry.resource === 'table.todos' && entry.details.by)
      .map((entry) => entry.details.by?.endUserId);
    expect(new Set(byUsers)).toEqual(new Set([alice.id, bob.id]));
  });

  it("keeps the definitions to the developer: /rest/v1/tables answers 42501 to the app's callers", async () => {
    const tables = await alice.client.from('tables').select();
    expect(tables.status).toBe(403);
    expect(tables.error?.code).toBe('42501');
    const visitor = await server.request('GET', '/rest/v1/tables', { headers: appKeyHeaders(dev.app.anonKey) });
    expect(visitor.status).toBe(401);
    const viaService = await appClient(server, dev.app.serviceKey).from('tables').select('name, access');
    expect(viaService.data).toEqual(expect.arrayContaining([{ name: 'todos', access: { ...OWN_ROWS } }]));
  });
});
