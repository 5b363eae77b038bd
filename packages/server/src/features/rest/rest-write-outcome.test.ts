import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRestTable, type RestUser, signUpRestUser, startRestServer } from '../../testing/rest.fixtures.js';
import { type TestServer, testDialects } from '../../testing/test-server.js';

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

  it('names the first clash in row order, as PostgreSQL meets it', async () => {
    const table = await fresh();
    await post(table, { title: 'Apple', qty: 7 });
    const res = await post(table, [{ title: 'Pear' }, { title: 'Apple' }, { title: 'Pear' }]);
    expect(res.body).toMatchObject({ code: '23505', details: 'Key (title)=(Apple) already exists.' });
  });

  it('names the value of a PATCH and of an upsert that clash', async () => {
    const table = await fresh();
    await post(table, [
      { title: 'Apple', qty: 1 },
      { title: 'Pear', qty: 2 },
    ]);
    const patch = await server.request('PATCH', `/rest/v1/${table}?title=eq.Pear`, {
      headers: alice.headers,
      json: { qty: 1 },
    });
    expect({ status: patch.status, body: patch.body }).toEqual({
      status: 409,
      body: {
        code: '23505',
        details: 'Key (qty)=(1) already exists.',
        hint: null,
        message: `duplicate key value violates unique constraint "${table}_qty_key"`,
      },
    });
    const upsert = await post(table, { title: 'Pear', qty: 1 }, '?on_conflict=title', 'resolution=merge-duplicates');
    expect(upsert.body).toMatchObject({ code: '23505', details: 'Key (qty)=(1) already exists.' });
  });

  // Each column type's value as PostgreSQL prints it (sessions in UTC), and a name PostgreSQL would quote.
  it.each([
    ['a number in exponent form', { qty: 1e21 }, 'qty', 'Key (qty)=(1e+21) already exists.'],
    ['a small number', { qty: 0.00001 }, 'qty', 'Key (qty)=(1e-05) already exists.'],
    ['a fraction', { qty: -2.5 }, 'qty', 'Key (qty)=(-2.5) already exists.'],
    ['a boolean', { flag: false }, 'flag', 'Key (flag)=(f) already exists.'],
    ['a date', { due: '2025-01-01T10:00:00.5Z' }, 'due', 'Key (due)=(2025-01-01 10:00:00.5+00) already exists.'],
    ['a whole date', { due: '2025-01-01' }, 'due', 'Key (due)=(2025-01-01 00:00:00+00) already exists.'],
    [
      'json, as jsonb prints it',
      { meta: { bb: [1, 2.5], a: 'x"y', c: null } },
      'meta',
      'Key (meta)=({"a": "x\\"y", "c": null, "bb": [1, 2.5]}) already exists.',
    ],
    ['an array', { tags: ['a', 'b'] }, 'tags', 'Key (tags)=(["a", "b"]) already exists.'],
    ['text with parentheses', { Code: 'x)=(y' }, 'Code', 'Key (Code)=(x)=(y) already exists.'],
  ])('words %s alike on both engines', async (_name, row, column, details) => {
    const table = `typed_${++n}`;
    await createRestTable(alice, table, {
      qty: { type: 'number', unique: true },
      flag: { type: 'boolean', unique: true },
      due: { type: 'date', unique: true },
      meta: { type: 'json', unique: true },
      tags: { type: 'array', unique: true },
      Code: { type: 'text', unique: true },
    });
    expect((await post(table, row)).status).toBe(201);
    const res = await post(table, row);
    expect({ status: res.status, body: res.body }).toEqual({
      status: 409,
      body: {
        code: '23505',
        details,
        hint: null,
        message: `duplicate key value violates unique constraint "${table}_${column}_key"`,
      },
    });
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

  it('answers 201 to ignore-duplicates even when every row was a duplicate, and 200 to a merge of no rows', async () => {
    const table = await fresh();
    const ignore = 'return=representation,resolution=ignore-duplicates';
    const first = await post(table, [{ title: 'a', qty: 1 }], '?on_conflict=title', ignore);
    expect({ status: first.status, body: first.body }).toMatchObject({ status: 201, body: [{ title: 'a', qty: 1 }] });
    const duplicate = await post(table, [{ title: 'a', qty: 2 }], '?on_conflict=title', ignore);
    expect({ status: duplicate.status, body: duplicate.body }).toEqual({ status: 201, body: [] });
    const minimal = await post(table, { title: 'a', qty: 3 }, '?on_conflict=title', 'resolution=ignore-duplicates');
    expect({ status: minimal.status, text: minimal.text }).toEqual({ status: 201, text: '' });
    const none = await post(table, [], '?on_conflict=title', 'return=representation,resolution=merge-duplicates');
    expect({ status: none.status, body: none.body }).toEqual({ status: 200, body: [] });
    const rows = await server.request('GET', `/rest/v1/${table}?select=title,qty`, { headers: alice.headers });
    expect(rows.body).toEqual([{ title: 'a', qty: 1 }]);
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
