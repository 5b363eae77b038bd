import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Developer, type EndUserClient, signUpEndUser, startDeveloper } from '../../testing/apps.fixtures.js';
import { users } from '../../testing/auth.fixtures.js';
import { createTable, type KeyedUser, signUpWithKey } from '../../testing/public-api.fixtures.js';
import { openTestDb, startTestServer, type TestServer, testDialects } from '../../testing/test-server.js';
import type { Db } from '../database.js';
import { preparedQuery, textQuery } from '../sql-text.js';

// On PostgreSQL a read with a name (a point read by id) is prepared once per connection and then only bound and
// run; a statement whose table changed under it must still answer as the table is now.

describe.runIf(testDialects.includes('postgres'))('reads prepared by name on postgres', () => {
  let opened: { db: Db; close(): Promise<void> };
  const preparedNames = async () =>
    (await opened.db.readRows<{ name: string }>(textQuery('SELECT name FROM pg_prepared_statements', []))).map(
      (row) => row.name,
    );

  beforeAll(async () => {
    opened = await openTestDb('postgres');
  });
  afterAll(() => opened.close());

  it('prepares a named read on its connection, and an unnamed one not', async () => {
    // One read at a time: the pool hands the same idle connection back.
    expect(await opened.db.readRows(preparedQuery('SELECT $1::int AS n', [7], 'basalt_test_seven'))).toEqual([
      { n: 7 },
    ]);
    expect(await opened.db.readRows(textQuery('SELECT $1::int AS m', [8]))).toEqual([{ m: 8 }]);
    expect(await preparedNames()).toEqual(['basalt_test_seven']);
    expect(await opened.db.readRows(preparedQuery('SELECT $1::int AS n', [9], 'basalt_test_seven'))).toEqual([
      { n: 9 },
    ]);
  });

  it('prepares a named statement of a transaction under its name, the same text under two names apart', async () => {
    const namesInTransaction = () =>
      opened.db.transaction(async (scope) => {
        await scope.run(preparedQuery('SELECT $1::int AS n', [1], 'basalt_test_trx_a'));
        // The same text under another name (a table's insert before and after its schema changed) is its own.
        await scope.run(preparedQuery('SELECT $1::int AS n', [2], 'basalt_test_trx_b'));
        expect(await scope.run(textQuery('SELECT $1::int AS m', [3]))).toEqual([{ m: 3 }]);
        return (await scope.run<{ name: string }>(textQuery('SELECT name FROM pg_prepared_statements', []))).map(
          (row) => row.name,
        );
      });
    const names = await namesInTransaction();
    expect(names).toEqual(expect.arrayContaining(['basalt_test_trx_a', 'basalt_test_trx_b']));
    expect(names.filter((name) => !name.startsWith('basalt_test'))).toEqual([]);
    // Run again on the same connection: the names are bound, not prepared a second time (which PostgreSQL refuses).
    expect(await namesInTransaction()).toEqual(expect.arrayContaining(['basalt_test_trx_a', 'basalt_test_trx_b']));
  });

  it('answers as the table is now when its columns changed under a prepared read', async () => {
    await opened.db.run(textQuery('CREATE TABLE prepared_probe (a int)', []));
    await opened.db.run(textQuery('INSERT INTO prepared_probe VALUES (1)', []));
    const read = () => opened.db.readRows(preparedQuery('SELECT * FROM prepared_probe', [], 'basalt_test_probe'));
    expect(await read()).toEqual([{ a: 1 }]);
    // PostgreSQL refuses the prepared statement now ("cached plan must not change result type").
    await opened.db.run(textQuery('ALTER TABLE prepared_probe ADD COLUMN b text', []));
    expect(await read()).toEqual([{ a: 1, b: null }]);
    expect(await read()).toEqual([{ a: 1, b: null }]);
  });
});

describe.runIf(testDialects.includes('postgres'))('a get by id after a schema change on postgres', () => {
  let server: TestServer;
  let alice: KeyedUser;

  beforeAll(async () => {
    server = await startTestServer('postgres');
    alice = await signUpWithKey(server, users.alice);
    await createTable(server, alice, 'items', { name: { type: 'text' } });
    const created = await server.request('POST', '/api/table/items', {
      headers: alice.keyHeaders,
      json: { name: 'first' },
    });
    expect(created.status).toBe(201);
  });
  afterAll(() => server.close());

  it('answers the columns the table has now, through both APIs', async () => {
    const get = () => server.request('GET', '/api/table/items/1', { headers: alice.keyHeaders });
    const rest = () =>
      server.request('GET', '/rest/v1/items?select=*&id=eq.1', {
        headers: { apikey: server.anonKey, authorization: `Bearer ${alice.accessToken}` },
      });
    for (let i = 0; i < 3; i++) expect((await get()).body).not.toHaveProperty('size');
    expect((await rest()).body[0]).not.toHaveProperty('size');
    const tables = await server.request('GET', '/api/tables', { headers: alice.tokenHeaders });
    const items = tables.body.find((t: { name: string }) => t.name === 'items');
    const changed = await server.request('PATCH', `/api/tables/${items.id}`, {
      headers: alice.tokenHeaders,
      json: { schema: { name: { type: 'text' }, size: { type: 'number' } } },
    });
    expect(changed.status).toBe(200);
    for (let i = 0; i < 3; i++) expect((await get()).body).toMatchObject({ id: 1, name: 'first', size: null });
    expect((await rest()).body[0]).toMatchObject({ id: 1, name: 'first', size: null });
  });
});

describe.runIf(testDialects.includes('postgres'))('an end user’s get under a rule on postgres', () => {
  let server: TestServer;
  let developer: Developer;
  let ann: EndUserClient;
  let ben: EndUserClient;
  let tableId = 0;
  const todoIds: Record<string, number> = {};

  beforeAll(async () => {
    server = await startTestServer('postgres');
    developer = await startDeveloper(server, users.bob);
    const created = await server.request('POST', '/api/tables', {
      headers: developer.headers,
      json: {
        name: 'todos',
        schema: { title: { type: 'text' }, owner: { type: 'text' } },
        access: { select: 'own', insert: 'own', update: 'own', delete: 'own', ownerColumn: 'owner' },
      },
    });
    expect(created.status).toBe(201);
    tableId = created.body.id;
    ann = await signUpEndUser(server, developer, 'ann@example.com');
    ben = await signUpEndUser(server, developer, 'ben@example.com');
    for (const [name, user] of [
      ['ann', ann],
      ['ben', ben],
    ] as const) {
      const res = await server.request('POST', '/rest/v1/todos', {
        headers: { ...user.headers, prefer: 'return=representation' },
        json: { title: name },
      });
      expect(res.status).toBe(201);
      todoIds[name] = res.body[0].id;
    }
  });
  afterAll(() => server.close());

  const titlesSeenBy = async (user: EndUserClient, todo: string) => {
    const res = await server.request('GET', `/rest/v1/todos?select=title&id=eq.${todoIds[todo]}`, {
      headers: user.headers,
    });
    expect(res.status).toBe(200);
    return res.body.map((row: { title: string }) => row.title);
  };

  it('sees only its own rows, read after read, and what a changed rule allows', async () => {
    for (let i = 0; i < 3; i++) {
      expect(await titlesSeenBy(ann, 'ann')).toEqual(['ann']);
      expect(await titlesSeenBy(ann, 'ben')).toEqual([]);
      expect(await titlesSeenBy(ben, 'ben')).toEqual(['ben']);
    }
    const opened = await server.request('PATCH', `/api/tables/${tableId}`, {
      headers: developer.headers,
      json: { access: { select: 'authenticated', insert: 'own', update: 'own', delete: 'own', ownerColumn: 'owner' } },
    });
    expect(opened.status).toBe(200);
    expect(await titlesSeenBy(ann, 'ben')).toEqual(['ben']);
    const closed = await server.request('PATCH', `/api/tables/${tableId}`, {
      headers: developer.headers,
      json: { access: { select: 'own', insert: 'own', update: 'own', delete: 'own', ownerColumn: 'owner' } },
    });
    expect(closed.status).toBe(200);
    for (let i = 0; i < 3; i++) expect(await titlesSeenBy(ann, 'ben')).toEqual([]);
    expect(await titlesSeenBy(ben, 'ben')).toEqual(['ben']);
  });
});
