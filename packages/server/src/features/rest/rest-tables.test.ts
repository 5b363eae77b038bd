import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RestUser, signUpRestUser, startRestServer, TODOS_SCHEMA } from '../../testing/rest.fixtures.js';
import { type TestServer, testDialects } from '../../testing/test-server.js';

// `/rest/v1/tables` through supabase-js, as the console calls it: list, create with
// `.insert(…).select().single()`, update, and drop with `.delete().eq('id', id)`.

describe.each(testDialects)('/rest/v1/tables on %s', (dialect) => {
  let server: TestServer;
  let alice: RestUser;

  beforeAll(async () => {
    server = await startRestServer(dialect);
    alice = await signUpRestUser(server);
  });
  afterAll(() => server.close());

  it('creates a table and returns it as one object', async () => {
    expect((await alice.client.from('tables').select('*')).data).toEqual([]);
    const { data, error, status } = await alice.client
      .from('tables')
      .insert({
        name: 'orders',
        description: 'Orders',
        schema: { item: { type: 'text', required: true }, qty: { type: 'number' } },
      })
      .select()
      .single();
    expect(error).toBeNull();
    expect(status).toBe(201);
    expect(data).toEqual({
      id: expect.any(Number),
      name: 'orders',
      description: 'Orders',
      schema: {
        id: { type: 'number', required: true, unique: true },
        item: { type: 'text', required: true, unique: false },
        qty: { type: 'number', required: false, unique: false },
      },
      access: { select: 'nobody', insert: 'nobody', update: 'nobody', delete: 'nobody', ownerColumn: null },
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const rows = await alice.client.from('orders').insert({ item: 'tea', qty: 2 }).select('item, qty');
    expect(rows.data).toEqual([{ item: 'tea', qty: 2 }]);
  });

  it('lists with a selection, filters, order and a count', async () => {
    await alice.client.from('tables').insert({ name: 'customers', schema: TODOS_SCHEMA });
    const all = await alice.client.from('tables').select('name', { count: 'exact' }).order('name');
    expect(all).toMatchObject({ status: 200, count: 2, data: [{ name: 'customers' }, { name: 'orders' }] });
    const one = await alice.client.from('tables').select('id, name').eq('name', 'orders').single();
    expect(one.data).toEqual({ id: expect.any(Number), name: 'orders' });
    const like = await alice.client.from('tables').select('name').ilike('name', 'CUST%');
    expect(like.data).toEqual([{ name: 'customers' }]);
    const paged = await alice.client.from('tables').select('name', { count: 'exact' }).order('name').range(1, 1);
    expect(paged).toMatchObject({ status: 206, count: 2, data: [{ name: 'orders' }] });
    const path = await alice.client.from('tables').select('name, title:schema->title->>type').eq('name', 'customers');
    expect(path.data).toEqual([{ name: 'customers', title: 'text' }]);
  });

  it('matches like patterns in linear time', async () => {
    const underscore = await alice.client.from('tables').select('name').like('name', 'cust_mers');
    expect(underscore.data).toEqual([{ name: 'customers' }]);
    const started = Date.now();
    const hostile = await alice.client
      .from('tables')
      .select('name')
      .like('name', `${'%_'.repeat(500)}x`);
    expect(hostile).toMatchObject({ status: 200, data: [] });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('refuses an invalid or duplicate definition with the tables service’s message', async () => {
    const short = await alice.client
      .from('tables')
      .insert({ name: 'ab', schema: { x: { type: 'text' } } })
      .select()
      .single();
    expect(short.status).toBe(400);
    expect(short.error).toMatchObject({ code: 'validation_failed', message: expect.any(String) });
    const taken = await alice.client.from('tables').insert({ name: 'orders', schema: { x: { type: 'text' } } });
    expect(taken.status).toBe(409);
    expect(taken.error).toMatchObject({ code: 'table_exists', message: 'A table named "orders" already exists' });
    const reserved = await alice.client.from('tables').insert({ name: 'tables', schema: { x: { type: 'text' } } });
    expect(reserved.status).toBe(400);
  });

  it('updates a definition', async () => {
    const { data: found } = await alice.client.from('tables').select('id').eq('name', 'orders').single();
    const updated = await alice.client
      .from('tables')
      .update({ description: 'All orders' })
      .eq('id', found?.id)
      .select('name, description')
      .single();
    expect(updated.data).toEqual({ name: 'orders', description: 'All orders' });
  });

  it('drops a table with its rows', async () => {
    const { data: found } = await alice.client.from('tables').select('id').eq('name', 'orders').single();
    const dropped = await alice.client.from('tables').delete().eq('id', found?.id);
    expect(dropped).toMatchObject({ status: 204, error: null });
    const gone = await alice.client.from('orders').select();
    expect(gone.error).toMatchObject({ code: 'PGRST205' });
    expect((await alice.client.from('tables').select('name')).data).toEqual([{ name: 'customers' }]);
  });

  it.each([
    [
      'DELETE without a filter: 21000',
      'DELETE',
      '/rest/v1/tables',
      400,
      { code: '21000', message: 'DELETE requires a WHERE clause' },
    ],
    [
      'an unknown field: 42703',
      'GET',
      '/rest/v1/tables?select=banana',
      400,
      { code: '42703', message: 'column tables.banana does not exist' },
    ],
    [
      'an unknown filter field: 42703',
      'GET',
      '/rest/v1/tables?banana=eq.1',
      400,
      { code: '42703', message: 'column tables.banana does not exist' },
    ],
    ['an id that is no number: 22P02', 'GET', '/rest/v1/tables?id=eq.x', 400, { code: '22P02' }],
    ['a bulk create: PGRST102', 'POST', '/rest/v1/tables', 400, { code: 'PGRST102' }],
    ['a JSON path filter: 0A000', 'GET', '/rest/v1/tables?schema->>title=eq.x', 400, { code: '0A000' }],
    ['ordering by a JSON path: 0A000', 'GET', '/rest/v1/tables?order=schema->title', 400, { code: '0A000' }],
  ])('%s', async (_name, method, url, status, expected) => {
    const json =
      method === 'POST'
        ? [
            { name: 'one', schema: {} },
            { name: 'two', schema: {} },
          ]
        : undefined;
    const res = await server.request(method, url, { headers: alice.headers, ...(json ? { json } : {}) });
    expect({ status: res.status, body: res.body }).toMatchObject({ status, body: expected });
  });
});
