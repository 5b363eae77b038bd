import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../testing/auth.fixtures.js';
import {
  createRestTable,
  type RestUser,
  seedTodos,
  signUpRestUser,
  startRestServer,
} from '../../testing/rest.fixtures.js';
import { type TestServer, testDialects } from '../../testing/test-server.js';

// Isolation: a second account reaches neither the first account's tables nor their rows,
// by name or by id, through any verb, and its own table of the same name is a separate table.

describe.each(testDialects)('/rest/v1 isolation between accounts on %s', (dialect) => {
  let server: TestServer;
  let alice: RestUser;
  let bob: RestUser;
  let aliceTableId: number;
  const T = 'todos';
  const unknownTable = {
    code: 'PGRST205',
    details: null,
    hint: null,
    message: `Could not find the table 'public.${T}' in the schema cache`,
  };

  beforeAll(async () => {
    server = await startRestServer(dialect);
    alice = await signUpRestUser(server, users.alice);
    bob = await signUpRestUser(server, users.bob);
    await seedTodos(alice, T);
    const { data } = await alice.client.from('tables').select('id').eq('name', T).single();
    aliceTableId = data?.id;
  });
  afterAll(() => server.close());

  it.each([
    ['GET', `/rest/v1/${T}`, undefined],
    ['GET', `/rest/v1/${T}?id=eq.1`, undefined],
    ['POST', `/rest/v1/${T}`, { title: 'from bob' }],
    ['PATCH', `/rest/v1/${T}?id=eq.1`, { title: 'bob was here' }],
    ['DELETE', `/rest/v1/${T}?id=gte.0`, undefined],
    ['GET', `/rest/v1/${T.toUpperCase()}`, undefined],
  ])('%s %s as another account: 404 PGRST205', async (method, url, json) => {
    const res = await server.request(method, url, { headers: bob.headers, ...(json ? { json } : {}) });
    expect({ status: res.status, body: res.body }).toEqual({
      status: 404,
      body: {
        ...unknownTable,
        message: `Could not find the table 'public.${url.split('/')[3]?.split('?')[0]}' in the schema cache`,
      },
    });
  });

  it('lists only the caller’s table definitions, and cannot change or drop another’s', async () => {
    expect((await bob.client.from('tables').select('*')).data).toEqual([]);
    const update = await bob.client.from('tables').update({ description: 'mine' }).eq('id', aliceTableId).select();
    expect(update).toMatchObject({ status: 200, data: [] });
    const drop = await bob.client.from('tables').delete().eq('id', aliceTableId).select();
    expect(drop).toMatchObject({ status: 200, data: [] });
    const { data } = await alice.client.from('tables').select('id, name, description');
    expect(data).toEqual([{ id: aliceTableId, name: T, description: null }]);
  });

  it('gives the second account its own table of the same name', async () => {
    await createRestTable(bob, T);
    expect((await bob.client.from(T).select('*')).data).toEqual([]);
    const inserted = await bob.client.from(T).insert({ title: 'Apple', qty: 1 }).select('id, title').single();
    expect(inserted.data).toEqual({ id: 1, title: 'Apple' });
    const removed = await bob.client.from(T).delete().gte('id', 0).select('title');
    expect(removed.data).toEqual([{ title: 'Apple' }]);
    const { data } = await alice.client.from(T).select('title, qty').order('id');
    expect(data).toEqual([
      { title: 'Apple', qty: 5 },
      { title: 'banana', qty: 12 },
      { title: 'Cherry pie', qty: null },
      { title: 'date 100%', qty: 9 },
    ]);
  });
});
