import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ApiScenario,
  runScenario,
  type SignedInTestUser,
  signUpUser,
  startAuthServer,
  users,
} from '../../testing/auth.fixtures.js';
import { type TestServer, testDialects } from '../../testing/test-server.js';

// A table's access rules through the console API (issue "Apps with their own users"): set at creation or with
// PATCH /api/tables/<id> {access}, checked against the schema, carried through column renames, backed by an
// index on the owner column, recorded in history and reverted like a schema change.

const OWN = { select: 'authenticated', insert: 'own', update: 'own', delete: 'own', ownerColumn: 'owner' };

describe.each(testDialects)('table access rules on %s', (dialect) => {
  let server: TestServer;
  let alice: SignedInTestUser;
  let tableId: number;

  beforeAll(async () => {
    server = await startAuthServer(dialect);
    alice = await signUpUser(server, users.alice);
    const created = await server.request('POST', '/api/tables', {
      headers: alice.headers,
      json: { name: 'notes', schema: { title: { type: 'text' }, owner: { type: 'text' }, qty: { type: 'number' } } },
    });
    tableId = created.body.id;
  });
  afterAll(() => server.close());

  async function hasOwnerIndex(): Promise<boolean> {
    const name = `t_${tableId}_owner_idx`;
    const query =
      dialect === 'sqlite'
        ? sql<{ n: number }>`SELECT count(*) AS n FROM sqlite_master WHERE type = 'index' AND name = ${name}`
        : sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_indexes WHERE indexname = ${name}`;
    const { rows } = await query.execute(server.app.basalt.db.kysely);
    return Number(rows[0]?.n) === 1;
  }

  const patch = (json: unknown) => () => ({ method: 'PATCH', url: `/api/tables/${tableId}`, json });
  const bad: Array<[string, () => { method: string; url: string; json: unknown }, Record<string, unknown>]> = [
    [
      'an owner column the table lacks',
      patch({ access: { ...OWN, ownerColumn: 'author' } }),
      {
        validationErrors: { 'access.ownerColumn': ['The owner column "author" does not exist in table "notes"'] },
      },
    ],
    [
      'an owner column that is not text',
      patch({ access: { ...OWN, ownerColumn: 'qty' } }),
      {
        validationErrors: {
          'access.ownerColumn': ['The owner column "qty" must be a text column (it holds user ids); it is number'],
        },
      },
    ],
    [
      'own rows without an owner column',
      patch({ access: { select: 'own' } }),
      {
        validationErrors: { 'access.ownerColumn': [expect.stringContaining('need an owner column')] },
      },
    ],
    [
      'an unknown rule',
      patch({ access: { select: 'everyone' } }),
      {
        validationErrors: { 'access.select': ['A rule must be one of: nobody, authenticated, public, own'] },
      },
    ],
    ['an unknown operation', patch({ access: { read: 'public' } }), {}],
    ['access that is not an object', patch({ access: 'public' }), {}],
  ];
  for (const [name, make, expected] of bad) {
    it(`refuses ${name} with 400`, async () => {
      const { method, url, json } = make();
      const scenario: ApiScenario = { name, method, url, headers: alice.headers, json, status: 400, expected };
      await runScenario(server, scenario);
    });
  }

  it('refuses bad rules at creation too, naming the column', async () => {
    const res = await server.request('POST', '/api/tables', {
      headers: alice.headers,
      json: { name: 'bad_rules', schema: { title: { type: 'text' } }, access: { ...OWN } },
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('The owner column "owner" does not exist in table "bad_rules"');
    expect(
      (await server.request('GET', '/api/tables', { headers: alice.headers })).body.map(
        (t: { name: string }) => t.name,
      ),
    ).not.toContain('bad_rules');
  });

  it('sets rules, returns them with the table, and indexes the owner column', async () => {
    expect(await hasOwnerIndex()).toBe(false);
    const res = await server.request('PATCH', `/api/tables/${tableId}`, {
      headers: alice.headers,
      json: { access: OWN },
    });
    expect(res.status).toBe(200);
    expect(res.body.access).toEqual(OWN);
    expect((await server.request('GET', `/api/tables/${tableId}`, { headers: alice.headers })).body.access).toEqual(
      OWN,
    );
    expect(await hasOwnerIndex()).toBe(true);
  });

  it('follows a rename of the owner column, refuses dropping or retyping it, and keeps its index', async () => {
    const table = (await server.request('GET', `/api/tables/${tableId}`, { headers: alice.headers })).body;
    const { owner, ...rest } = table.schema;
    const renamed = await server.request('PUT', `/api/tables/${tableId}/schema`, {
      headers: alice.headers,
      json: { schema: { ...rest, author: owner }, renames: { owner: 'author' } },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body.access.ownerColumn).toBe('author');
    expect(await hasOwnerIndex()).toBe(true);

    const dropped = await server.request('PUT', `/api/tables/${tableId}/schema`, {
      headers: alice.headers,
      json: { schema: rest },
    });
    expect(dropped.status).toBe(400);
    expect(dropped.body.message).toContain('"author" is the owner column');
    const retyped = await server.request('PUT', `/api/tables/${tableId}/schema`, {
      headers: alice.headers,
      json: { schema: { ...rest, author: { type: 'number' } } },
    });
    expect(retyped.status).toBe(400);

    // A change that rebuilds the table on SQLite (a column made required) keeps the owner index.
    const required = await server.request('PUT', `/api/tables/${tableId}/schema`, {
      headers: alice.headers,
      json: { schema: { ...rest, title: { type: 'text', required: true }, author: owner } },
    });
    expect(required.status).toBe(200);
    expect(await hasOwnerIndex()).toBe(true);
  });

  it('records a rule change in history and reverts it like a schema change', async () => {
    const opened = await server.request('PATCH', `/api/tables/${tableId}`, {
      headers: alice.headers,
      json: { access: { select: 'public', insert: 'nobody', update: 'nobody', delete: 'nobody' } },
    });
    expect(opened.body.access).toEqual({
      select: 'public',
      insert: 'nobody',
      update: 'nobody',
      delete: 'nobody',
      ownerColumn: null,
    });
    expect(await hasOwnerIndex()).toBe(false);
    const history = await server.request('GET', `/api/history?tableId=${tableId}`, { headers: alice.headers });
    const [latest] = history.body.data;
    expect(latest).toMatchObject({
      changeType: 'SCHEMA_UPDATE',
      previousState: { access: { ...OWN, ownerColumn: 'author' } },
      newState: { access: { select: 'public', ownerColumn: null } },
    });
    const reverted = await server.request('POST', `/api/history/${latest.id}/revert`, { headers: alice.headers });
    expect(reverted.status).toBe(200);
    const after = await server.request('GET', `/api/tables/${tableId}`, { headers: alice.headers });
    expect(after.body.access).toEqual({ ...OWN, ownerColumn: 'author' });
    expect(await hasOwnerIndex()).toBe(true);
  });

  it('brings a deleted table back with its rules', async () => {
    const created = await server.request('POST', '/api/tables', {
      headers: alice.headers,
      json: { name: 'journal', schema: { owner: { type: 'text' } }, access: { ...OWN } },
    });
    expect(created.body.access).toEqual(OWN);
    await server.request('DELETE', `/api/tables/${created.body.id}`, { headers: alice.headers });
    const history = await server.request('GET', `/api/history?tableId=${created.body.id}`, { headers: alice.headers });
    const deletion = history.body.data.find((c: { changeType: string }) => c.changeType === 'SCHEMA_DELETE');
    expect(
      (await server.request('POST', `/api/history/${deletion.id}/revert`, { headers: alice.headers })).status,
    ).toBe(200);
    const back = await server.request('GET', `/api/tables/${created.body.id}`, { headers: alice.headers });
    expect(back.body.access).toEqual(OWN);
  });
});
