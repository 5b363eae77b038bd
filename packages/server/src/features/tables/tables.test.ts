import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AccountName, type SignedInAccount, signInAll } from '../../testing/tables.fixtures.js';
import { startTestServer, type TestServer, testDialects } from '../../testing/test-server.js';

const ID = { type: 'number', required: true, unique: true };
const todos = {
  name: 'todos',
  description: 'Things to do',
  schema: { id: ID, title: { type: 'text', required: true } },
};

describe.each(testDialects)('tables API on %s', (dialect) => {
  let server: TestServer;
  let accounts: Record<AccountName, SignedInAccount>;
  const as = (name: AccountName) => accounts[name].headers;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    accounts = await signInAll(server);
  });
  afterAll(() => server.close());

  it.each<[string, unknown, number, string]>([
    [
      'a short name',
      { name: 'ab', schema: { title: { type: 'text' } } },
      400,
      'Table name must be at least 3 characters',
    ],
    [
      'a long name',
      { name: `a${'b'.repeat(63)}`, schema: { x: { type: 'text' } } },
      400,
      'Table name cannot exceed 63 characters',
    ],
    ['a missing name', { schema: { title: { type: 'text' } } }, 400, 'Table name is required'],
    [
      'a name with a dash',
      { name: 'my-table', schema: { x: { type: 'text' } } },
      400,
      'Table name must start with a letter and contain only letters, numbers and underscores',
    ],
    [
      'an SQL fragment as name',
      { name: 'x"; DROP TABLE accounts;--', schema: { x: { type: 'text' } } },
      400,
      'Table name must start with a letter and contain only letters, numbers and underscores',
    ],
    [
      'a reserved name',
      { name: 'Tables', schema: { x: { type: 'text' } } },
      400,
      '"Tables" is a reserved name; choose another table name',
    ],
    ['no columns', { name: 'empty', schema: {} }, 400, 'At least one column is required'],
    [
      'an unknown type',
      { name: 'typed', schema: { x: { type: 'money' } } },
      400,
      'Column type must be one of: text, number, boolean, date, date_only, json, array',
    ],
    [
      'a bad column name',
      { name: 'cols', schema: { '1st': { type: 'text' } } },
      400,
      'Column name must start with a letter and contain only letters, numbers and underscores',
    ],
    [
      'columns equal but for case',
      { name: 'dupes', schema: { Title: { type: 'text' }, title: { type: 'text' } } },
      400,
      'Column names must be unique: "title" is used twice (names ignore case)',
    ],
    [
      'a redefined system column',
      { name: 'sys', schema: { id: { type: 'text' } } },
      400,
      '"id" is a system column (number, required, unique) and cannot be defined or changed',
    ],
    [
      'a long description',
      { name: 'described', description: 'x'.repeat(501), schema: { x: { type: 'text' } } },
      400,
      'Description cannot exceed 500 characters',
    ],
  ])('refuses %s', async (_, body, status, message) => {
    const res = await server.request('POST', '/api/tables', { headers: as('alice'), json: body });
    expect(res.status).toBe(status);
    expect(res.body.message).toBe(message);
  });

  it('needs a signed-in user', async () => {
    const res = await server.request('POST', '/api/tables', { json: todos });
    expect(res.status).toBe(401);
    expect(res.body.message).toBe('Authentication required');
    expect((await server.request('GET', '/api/tables')).status).toBe(401);
  });

  it('creates a table with the id column first and reads it back', async () => {
    const res = await server.request('POST', '/api/tables', { headers: as('alice'), json: todos });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: 'todos', description: 'Things to do' });
    expect(Object.keys(res.body.schema)).toEqual(['id', 'title']);
    expect(res.body.schema.title).toEqual({ type: 'text', required: true, unique: false });
    const got = await server.request('GET', `/api/tables/${res.body.id}`, { headers: as('alice') });
    expect(got.body).toEqual(res.body);
  });

  it('refuses a second table of the same name, ignoring case', async () => {
    const res = await server.request('POST', '/api/tables', {
      headers: as('alice'),
      json: { ...todos, name: 'TODOS' },
    });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('A table named "TODOS" already exists');
  });

  it('lets another account use the same name, and keeps each list to its owner', async () => {
    const res = await server.request('POST', '/api/tables', { headers: as('bob'), json: todos });
    expect(res.status).toBe(201);
    const alice = await server.request('GET', '/api/tables', { headers: as('alice') });
    const bob = await server.request('GET', '/api/tables', { headers: as('bob') });
    expect(bob.body.map((t: { id: number }) => t.id)).toEqual([res.body.id]);
    expect(alice.body.map((t: { id: number }) => t.id)).not.toContain(res.body.id);
  });

  it.each([
    ['GET', ''],
    ['PATCH', ''],
    ['PUT', '/schema'],
    ['DELETE', ''],
  ])('answers 404 to %s of another account’s table, unknown ids and bad ids', async (method, suffix) => {
    const bobs = (await server.request('GET', '/api/tables', { headers: as('bob') })).body[0].id;
    const json =
      method === 'GET' || method === 'DELETE' ? undefined : { description: 'mine', schema: { x: { type: 'text' } } };
    for (const id of [bobs, 999999, 'abc', '1;DROP']) {
      const res = await server.request(method, `/api/tables/${id}${suffix}`, { headers: as('alice'), json });
      expect(res.status).toBe(404);
      expect(res.body.message).toBe('Table not found');
    }
    expect((await server.request('GET', `/api/tables/${bobs}`, { headers: as('bob') })).status).toBe(200);
  });

  it('renames and re-describes a table', async () => {
    const created = await server.request('POST', '/api/tables', {
      headers: as('alice'),
      json: { ...todos, name: 'drafts' },
    });
    const res = await server.request('PATCH', `/api/tables/${created.body.id}`, {
      headers: as('alice'),
      json: { name: 'Notes', description: null },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'Notes', description: null });
    const clash = await server.request('PATCH', `/api/tables/${created.body.id}`, {
      headers: as('alice'),
      json: { name: 'todos' },
    });
    expect(clash.status).toBe(409);
    const reserved = await server.request('PATCH', `/api/tables/${created.body.id}`, {
      headers: as('alice'),
      json: { name: 'stats' },
    });
    expect(reserved.status).toBe(400);
  });

  it('creates a 100-column table and names with odd but valid characters', async () => {
    const schema = Object.fromEntries(
      Array.from({ length: 100 }, (_, i) => [
        `C${i}_${'x'.repeat(i % 50)}`,
        { type: ['text', 'number', 'boolean', 'date', 'json', 'array'][i % 6], unique: i % 10 === 0 },
      ]),
    );
    const wide = await server.request('POST', '/api/tables', {
      headers: as('alice'),
      json: { name: 'Wide_Table_2024', schema },
    });
    expect(wide.status).toBe(201);
    expect(Object.keys(wide.body.schema)).toHaveLength(101);
    const odd = `Z${'_9'.repeat(31)}`;
    const res = await server.request('POST', '/api/tables', {
      headers: as('alice'),
      json: {
        name: odd,
        schema: {
          [`a${'B'.repeat(62)}`]: { type: 'text', unique: true },
          select: { type: 'text' },
          FROM: { type: 'number' },
        },
      },
    });
    expect(res.status).toBe(201);
    expect(res.body.name).toBe(odd);
  });

  it('deletes a table and its data, and then answers 404', async () => {
    const created = await server.request('POST', '/api/tables', {
      headers: as('alice'),
      json: { ...todos, name: 'doomed' },
    });
    const res = await server.request('DELETE', `/api/tables/${created.body.id}`, { headers: as('alice') });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, message: 'Table deleted successfully' });
    expect((await server.request('GET', `/api/tables/${created.body.id}`, { headers: as('alice') })).status).toBe(404);
    const again = await server.request('POST', '/api/tables', {
      headers: as('alice'),
      json: { ...todos, name: 'doomed' },
    });
    expect(again.status).toBe(201);
  });
});
