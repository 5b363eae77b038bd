import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AccountHolder,
  bearer,
  fieldError,
  signUpAccountHolder,
  userRouteScenarios,
} from '../../testing/account.fixtures.js';
import {
  type ApiScenario,
  keyHeaders,
  runScenario,
  type SignedInTestUser,
  signInUser,
  signUpUser,
  startAuthServer,
  users,
} from '../../testing/auth.fixtures.js';
import { createTable, type KeyedUser, seedItems, signUpWithKey } from '../../testing/public-api.fixtures.js';
import { type TestServer, testDialects } from '../../testing/test-server.js';

// DELETE /api/user: the account and everything it owns go in one transaction, its real tables t_<id> dropped,
// every system row that names it deleted (checked on every system table with an account_id column, so a table
// added later is covered too); a refused request deletes nothing; other accounts are untouched.

const URL = '/api/user';
const COLUMNS = { title: { type: 'text' } };
// The system tables that hold rows of an account by its account_id (the account's own row is in accounts).
const OWNED_TABLES = ['user_tables', 'change_history', 'activity_logs', 'api_keys', 'auth_sessions', 'checkpoints'];

describe.each(testDialects)('deleting an account on %s', (dialect) => {
  let server: TestServer;
  let alice: AccountHolder;
  let bob: KeyedUser;
  let aliceOther: SignedInTestUser;
  const aliceTables: number[] = [];
  let bobTable: number;

  beforeAll(async () => {
    server = await startAuthServer(dialect);
    alice = await signUpAccountHolder(server, users.alice);
    bob = await signUpWithKey(server, users.bob);
    aliceTables.push((await createTable(server, alice, 'items')).id);
    aliceTables.push((await createTable(server, alice, 'notes', { body: { type: 'text', unique: true } })).id);
    await seedItems(server, alice, 'items', 3);
    await server.request('DELETE', '/api/table/items/3', { headers: alice.keyHeaders });
    bobTable = (await createTable(server, bob, 'items', { label: { type: 'text' } })).id;
    await server.request('POST', '/api/table/items', { headers: bob.keyHeaders, json: { label: 'kept' } });
    aliceOther = await signInUser(server, users.alice);
    await addCheckpoint(alice.id, aliceTables[0] ?? 0);
  });
  afterAll(() => server.close());

  const db = () => server.app.basalt.db.kysely;

  // A checkpoint belongs to the account too; written directly, whichever API creates them.
  async function addCheckpoint(accountId: string, tableId: number) {
    await sql`INSERT INTO checkpoints (account_id, table_id, name, created_at)
      VALUES (${accountId}, ${tableId}, ${'before'}, ${new Date().toISOString()})`.execute(db());
  }

  // Every system table with an account_id column, and how many of its rows name the account.
  async function rowsOwnedBy(accountId: string): Promise<Record<string, number>> {
    const tables = await db().introspection.getTables();
    const owned: Record<string, number> = {};
    for (const table of tables) {
      if (!table.columns.some((c) => c.name === 'account_id')) continue;
      const { rows } = await sql<{ n: number | string }>`SELECT count(*) AS n FROM ${sql.table(table.name)}
        WHERE account_id = ${accountId}`.execute(db());
      owned[table.name] = Number(rows[0]?.n);
    }
    return owned;
  }

  // The messages of the account's entries in Basalt's own log.
  async function logMessagesOf(accountId: string): Promise<string[]> {
    const { rows } = await sql<{ message: string }>`SELECT message FROM system_logs
      WHERE account_id = ${accountId}`.execute(db());
    return rows.map((row) => row.message);
  }

  const userTables = async () =>
    (await db().introspection.getTables()).map((t) => t.name).filter((name) => /^t_\d+$/.test(name));

  async function expectAliceIntact() {
    expect(await db().selectFrom('accounts').select('id').where('id', '=', alice.id).executeTakeFirst()).toBeTruthy();
    expect(await userTables()).toEqual(expect.arrayContaining(aliceTables.map((id) => `t_${id}`)));
    const res = await server.request('GET', '/api/table/items', { headers: alice.keyHeaders });
    expect([res.status, res.body.length]).toEqual([200, 2]);
  }

  const { credentialRefusals, asHolder: asAlice, malformedJson } = userRouteScenarios('DELETE', URL, () => alice);
  const refusals: ApiScenario[] = [
    ...credentialRefusals({ confirm: 'alice' }),
    asAlice('no confirmation', {}, 400, fieldError('confirm', 'Type your username to confirm')),
    asAlice('a blank confirmation', { confirm: '   ' }, 400, { message: 'Type your username to confirm' }),
    asAlice('a confirmation that is not text', { confirm: 1 }, 400, { message: 'Type your username to confirm' }),
    asAlice(
      'the wrong username',
      { confirm: 'alic' },
      400,
      fieldError('confirm', 'Type your username, alice, to confirm', 'confirmation_mismatch'),
    ),
    asAlice('the username in other case', { confirm: 'ALICE' }, 400, { code: 'confirmation_mismatch' }),
    asAlice("another account's username", { confirm: 'bob' }, 400, { code: 'confirmation_mismatch' }),
    asAlice('no body', undefined, 400, { message: 'Type your username to confirm' }),
    malformedJson('{"confirm"'),
  ];
  it.each(refusals)('$name → $status, and nothing is deleted', async (scenario) => {
    await runScenario(server, scenario);
    await expectAliceIntact();
  });

  it('deletes the account and everything it owns, and nothing of anyone else', async () => {
    await server.app.basalt.logs.flush();
    const before = await rowsOwnedBy(alice.id);
    expect(await db().selectFrom('accounts').select('id').where('id', '=', alice.id).executeTakeFirst()).toBeTruthy();
    // Each of these holds some of Alice's rows now, so that their absence afterwards means something.
    for (const table of [...OWNED_TABLES, 'system_logs']) expect(before[table], table).toBeGreaterThan(0);
    expect(before.checkpoints).toBe(1);
    const bobBefore = await rowsOwnedBy(bob.id);

    const res = await server.request('DELETE', URL, { headers: alice.cookie.headers, json: { confirm: ' alice ' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: 'Account deleted' });
    expect(res.headers.getSetCookie().join(';')).toMatch(/basalt_session=;/);

    expect(
      await db().selectFrom('accounts').select('id').where('id', '=', alice.id).executeTakeFirst(),
    ).toBeUndefined();
    // Nothing is left of the account, except its log line of this very request (stored after the answer).
    const { system_logs: _ownLogLine, ...owned } = await rowsOwnedBy(alice.id);
    expect(owned).toEqual(Object.fromEntries(Object.keys(owned).map((table) => [table, 0])));
    for (const message of await logMessagesOf(alice.id)) expect(message).toBe('DELETE /api/user 200');
    expect(Object.keys(owned)).toEqual(expect.arrayContaining(OWNED_TABLES));
    const tables = await userTables();
    for (const id of aliceTables) expect(tables).not.toContain(`t_${id}`);
    expect(tables).toContain(`t_${bobTable}`);
    expect(await rowsOwnedBy(bob.id)).toEqual(bobBefore);

    // Every credential of the account stops working.
    expect((await server.request('GET', '/api/table/items', { headers: alice.keyHeaders })).status).toBe(401);
    expect((await server.request('GET', '/api/auth/me', { headers: { cookie: alice.cookie.cookie } })).status).toBe(
      401,
    );
    expect((await server.request('GET', '/api/auth/me', { headers: bearer(aliceOther.accessToken) })).status).toBe(401);
    const refresh = await server.request('POST', '/auth/v1/token?grant_type=refresh_token', {
      headers: keyHeaders(server.anonKey),
      json: { refresh_token: aliceOther.refreshToken },
    });
    expect(refresh.status).toBe(400);
    const signIn = await server.request('POST', '/api/auth/login', {
      json: { email: users.alice.email, password: users.alice.password },
    });
    expect(signIn.status).toBe(401);

    // A token handed out before stays a valid signature until it expires; writes with it are refused.
    const stale = bearer(aliceOther.accessToken);
    const tablesBefore = await userTables();
    const writes = [
      await server.request('POST', '/api/tables', { headers: stale, json: { name: 'again', schema: COLUMNS } }),
      await server.request('POST', '/api/keys', { headers: stale, json: { name: 'again' } }),
      await server.request('POST', '/rest/v1/tables', {
        headers: aliceOther.headers,
        json: { name: 'again', schema: COLUMNS },
      }),
    ];
    expect(writes.map((w) => w.status)).toEqual([401, 401, 401]);
    expect(writes[0]?.body).toMatchObject({ code: 'session_not_found' });
    expect(await userTables()).toEqual(tablesBefore);

    // Bob's table of the same name is untouched.
    const bobs = await server.request('GET', '/api/table/items', { headers: bob.keyHeaders });
    expect([bobs.status, bobs.body.map((r: { label: string }) => r.label)]).toEqual([200, ['kept']]);
  });

  it('frees the email and the username: signing up again starts an empty account', async () => {
    const again = await signUpUser(server, users.alice);
    expect(again.id).not.toBe(alice.id);
    const tables = await server.request('GET', '/api/tables', { headers: bearer(again.accessToken) });
    expect(tables.body).toEqual([]);
    const doc = await server.request('GET', '/api/openapi.json', { headers: bearer(again.accessToken) });
    expect(doc.body.paths).toEqual({});
  });

  it('deletes with a bearer token too (an account without tables or keys)', async () => {
    const carol = await signUpUser(server, users.carol);
    const res = await server.request('DELETE', URL, { headers: bearer(carol.accessToken), json: { confirm: 'carol' } });
    expect(res.status).toBe(200);
    const { system_logs: _ownLogLine, ...owned } = await rowsOwnedBy(carol.id);
    expect(Object.values(owned).every((n) => n === 0)).toBe(true);
    // The session ended with the account.
    const after = await server.request('DELETE', URL, {
      headers: bearer(carol.accessToken),
      json: { confirm: 'carol' },
    });
    expect(after.status).toBe(401);
  });
});
