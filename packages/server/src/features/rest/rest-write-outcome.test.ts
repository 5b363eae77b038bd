import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestServer, testDialects } from '../../testing/test-server.js';
import { createRestTable, type RestUser, signUpRestUser, startRestServer } from './rest.fixtures.js';

// What a write tells the client, alike on both engines: the value of a unique violation in its details (as
// PostgreSQL words it), 201 only when an upsert created a record, and `columns=` naming the server's
// timestamps (ignored, as in the body).

describe.each(testDialects)('/rest/v1 write outcomes on %s', (dialect) => {
  let server: TestServer;
  let alice: RestUser;
  let n = 0;

  const fresh = async () => {
    const name = `outcome_${++n}`;
    await createRestTable(alice, name, {
      title: { type: 'text', required: true, unique: true },
      qty: { type: 'number', unique: true },
    });
    return name;
  };
  const post = (table: string, json: unknown, query = '', prefer = 'return=representation') =>
    server.request('POST', `/rest/v1/${table}${query}`, { headers: { ...alice.headers, prefer }, json });

  beforeAll(async () => {
    server = await startRestServer(dialect);
    alice = await signUpRestUser(server);
  });
  afterAll(() => server.close());

  it.each([
    ['one row', [{ title: 'Apple' }], 'Key (title)=(Apple) already exists.'],
    [
      'a bulk insert meeting a stored row',
      [{ title: 'Pear' }, { title: 'Apple' }],
      'Key (title)=(Apple) already exists.',
    ],
    ['a value sent twice', [{ title: 'Fig' }, { title: 'Fig' }], 'Key (title)=(Fig) already exists.'],
    ['a number', [{ title: 'Kiwi', qty: 7 }], 'Key (qty)=(7) already exists.'],
  ])('names the duplicate value of %s', async (_name, rows, details) => {
    const table = await fresh();
    expect((await post(table, { title: 'Apple', qty: 7 })).status).toBe(201);
    const res = await post(table, rows);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: '23505', details });
  });

  it('answers 201 when an upsert creates a record and 200 when it only merges', async () => {
    const table = await fresh();
    const merge = 'return=representation,resolution=merge-duplicates';
    expect((await post(table, [{ title: 'a', qty: 1 }], '?on_conflict=title', merge)).status).toBe(201);
    const merged = await post(table, [{ title: 'a', qty: 2 }], '?on_conflict=title', merge);
    expect(merged.status).toBe(200);
    expect(merged.body).toMatchObject([{ title: 'a', qty: 2 }]);
    const mixed = await post(
      table,
      [
        { title: 'a', qty: 3 },
        { title: 'b', qty: 4 },
      ],
      '?on_conflict=title',
      merge,
    );
    expect(mixed.status).toBe(201);
  });

  it('ignores created_at and updated_at in columns=', async () => {
    const table = await fresh();
    const res = await post(
      table,
      [{ title: 'x', created_at: '2000-01-01T00:00:00Z', updated_at: '2000-01-01T00:00:00Z' }],
      `?columns=${encodeURIComponent('title,created_at,updated_at')}`,
    );
    expect(res.status).toBe(201);
    expect(res.body[0].title).toBe('x');
    expect(res.body[0].created_at).not.toMatch(/^2000/);
  });
});
