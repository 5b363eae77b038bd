import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordsChanged } from './features/records/records.service.js';
import { callNode, type ServerProcess, startServerProcess } from './testing/server-process.js';
import { createTestDatabase, startTestServer, type TestServer } from './testing/test-server.js';

// Two Basalt nodes on one PostgreSQL database behave as one: node A is a `basalt serve` process of its own, node
// B a server in this process (so the suite can also listen to B's bus). Whatever A changes, B honours within
// 100 ms: every cache on B is invalidated by the event A publishes after its commit.

const WITHIN_MS = 100;

/** seenWithin asks `probe` until it says yes, and returns how many ms that took (it fails past `limit`). */
async function seenWithin(limit: number, probe: () => Promise<boolean>): Promise<number> {
  const started = performance.now();
  for (;;) {
    if (await probe()) return performance.now() - started;
    const spent = performance.now() - started;
    if (spent > limit) throw new Error(`not seen within ${limit} ms (${Math.round(spent)} ms)`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

describe.skipIf(!process.env.TEST_DATABASE_URL)('two nodes on one PostgreSQL', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let a: ServerProcess;
  let b: TestServer;
  let anonKey: string;
  let signUps = 0;

  beforeAll(async () => {
    database = await createTestDatabase();
    // The nodes of one deployment share its public address, which is also the issuer of its tokens.
    const siteUrl = 'http://basalt.cluster.test';
    a = await startServerProcess({ DATABASE_URL: database.url, AUTH_RATE_LIMIT: '1000', SITE_URL: siteUrl });
    b = await startTestServer('postgres', { databaseUrl: database.url, authRateLimit: 1000, siteUrl });
    anonKey = (await callNode(a.url, 'GET', '/api/config', {})).body.anonKey;
  }, 60_000);

  afterAll(async () => {
    await b?.close();
    await a?.stop();
    await database?.drop();
  });

  const onA = (method: string, path: string, headers: Record<string, string>, json?: unknown) =>
    callNode(a.url, method, path, headers, json);
  const onB = (method: string, path: string, headers: Record<string, string>, json?: unknown) =>
    callNode(b.url, method, path, headers, json);

  async function signUp(): Promise<{ token: string; refresh: string; headers: Record<string, string> }> {
    signUps++;
    const email = `user${signUps}-${Date.now()}@example.test`;
    const res = await onA('POST', '/auth/v1/signup', { apikey: anonKey }, { email, password: 'Sturdy-Passw0rd!' });
    expect(res.status).toBe(200);
    const token: string = res.body.access_token;
    return { token, refresh: res.body.refresh_token, headers: { apikey: anonKey, authorization: `Bearer ${token}` } };
  }

  async function tableOn(user: { headers: Record<string, string> }, name: string) {
    const res = await onA('POST', '/api/tables', user.headers, {
      name,
      schema: { title: { type: 'text', required: true } },
    });
    expect(res.status).toBe(201);
    return res.body as { id: number; schema: Record<string, unknown> };
  }

  it('sees a column added on A at once on B', async () => {
    const user = await signUp();
    const table = await tableOn(user, 'notes');
    // B reads and caches the definition.
    expect((await onB('GET', '/rest/v1/notes?select=*', user.headers)).status).toBe(200);
    const change = await onA('PUT', `/api/tables/${table.id}/schema`, user.headers, {
      schema: { ...table.schema, note: { type: 'text' } },
    });
    expect(change.status).toBe(200);
    await seenWithin(WITHIN_MS, async () => {
      const write = await onB('POST', '/rest/v1/notes', user.headers, { title: 't', note: 'n' });
      return write.status === 201;
    });
    expect((await onB('GET', '/rest/v1/notes?note=eq.n&select=note', user.headers)).body).toEqual([{ note: 'n' }]);
  });

  // B prepares a get by id on its connections under a name made of the table and its schema version. Until A's
  // event reaches it, B still reads with the old definition, so the old name, whose statement PostgreSQL refuses
  // once the columns changed ("cached plan must not change result type"): B must read it again unprepared.
  it('answers gets by id on B while A changes the columns, then with the new column', async () => {
    const user = await signUp();
    const table = await tableOn(user, 'memos');
    const created = await onA(
      'POST',
      '/rest/v1/memos',
      { ...user.headers, prefer: 'return=representation' },
      {
        title: 'first',
      },
    );
    expect(created.status).toBe(201);
    const path = `/rest/v1/memos?select=*&id=eq.${created.body[0].id}`;
    const get = () => onB('GET', path, { ...user.headers, accept: 'application/vnd.pgrst.object+json' });
    // Concurrent gets, so that several of B's pooled connections hold the prepared statement.
    for (const res of await Promise.all(Array.from({ length: 8 }, get))) expect(res.status).toBe(200);

    const statuses: number[] = [];
    let changing = true;
    const reading = (async () => {
      while (changing) statuses.push(...(await Promise.all(Array.from({ length: 4 }, get))).map((res) => res.status));
    })();
    const change = await onA('PUT', `/api/tables/${table.id}/schema`, user.headers, {
      schema: { ...table.schema, mood: { type: 'text' } },
    });
    expect(change.status).toBe(200);
    await seenWithin(WITHIN_MS, async () => 'mood' in (await get()).body);
    changing = false;
    await reading;
    expect(statuses.length).toBeGreaterThan(0);
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    expect((await get()).body).toMatchObject({ title: 'first', mood: null });
  });

  it('sees a table renamed and deleted on A at once on B (404, never 409)', async () => {
    const user = await signUp();
    const table = await tableOn(user, 'drafts');
    expect((await onB('GET', '/api/table/drafts', user.headers)).status).toBe(200);
    expect((await onA('PATCH', `/api/tables/${table.id}`, user.headers, { name: 'letters' })).status).toBe(200);
    // The old name first: B holds the definition under it.
    await seenWithin(WITHIN_MS, async () => (await onB('GET', '/rest/v1/drafts', user.headers)).status === 404);
    expect((await onB('GET', '/api/table/letters', user.headers)).status).toBe(200);

    expect((await onA('DELETE', `/api/tables/${table.id}`, user.headers)).status).toBe(200);
    const statuses = new Set<number>();
    await seenWithin(WITHIN_MS, async () => {
      const write = await onB('POST', '/rest/v1/letters', user.headers, { title: 'late' });
      statuses.add(write.status);
      return write.status === 404;
    });
    expect(statuses.has(409)).toBe(false);
  });

  it('refuses on B an API key deleted on A', async () => {
    const user = await signUp();
    await tableOn(user, 'stock');
    const created = await onA('POST', '/api/keys', user.headers, { name: 'server' });
    expect(created.status).toBe(201);
    const keyHeaders = { authorization: `Bearer ${created.body.key}` };
    expect((await onB('GET', '/api/table/stock', keyHeaders)).status).toBe(200);
    expect((await onA('DELETE', `/api/keys/${created.body.id}`, user.headers)).status).toBe(200);
    await seenWithin(WITHIN_MS, async () => (await onB('GET', '/api/table/stock', keyHeaders)).status === 401);
  });

  it('forgets on B everything of an account deleted on A: its key, token, app keys and tables', async () => {
    const user = await signUp();
    await tableOn(user, 'goods');
    const key = await onA('POST', '/api/keys', user.headers, { name: 'server' });
    const app = (await onA('GET', '/api/app', user.headers)).body;
    const keyHeaders = { authorization: `Bearer ${key.body.key}` };
    const appHeaders = { apikey: app.anonKey, authorization: `Bearer ${app.anonKey}` };
    // B has read (and cached) all of them.
    expect((await onB('GET', '/api/table/goods', keyHeaders)).status).toBe(200);
    expect((await onB('GET', '/api/tables', user.headers)).status).toBe(200);
    expect((await onB('GET', '/auth/v1/settings', appHeaders)).status).toBe(200);
    const username = (await onA('GET', '/api/auth/me', user.headers)).body.user.username;
    expect((await onA('DELETE', '/api/user', user.headers, { confirm: username })).status).toBe(200);
    await seenWithin(WITHIN_MS, async () => (await onB('GET', '/api/table/goods', keyHeaders)).status === 401);
    expect((await onB('GET', '/api/tables', user.headers)).status).toBe(401);
    expect((await onB('GET', '/auth/v1/settings', appHeaders)).status).toBe(401);
  });

  it('refuses on B the access token of a session signed out on A', async () => {
    const user = await signUp();
    expect((await onB('GET', '/auth/v1/user', user.headers)).status).toBe(200);
    expect((await onB('GET', '/api/tables', user.headers)).status).toBe(200);
    expect((await onA('POST', '/auth/v1/logout', user.headers)).status).toBe(204);
    await seenWithin(WITHIN_MS, async () => (await onB('GET', '/api/tables', user.headers)).status === 401);
    expect((await onB('GET', '/auth/v1/user', user.headers)).status).toBe(403);
    expect((await onB('GET', '/rest/v1/anything', user.headers)).status).toBe(401);
  });

  it('refuses on B the other sessions of a user whose password changed on A', async () => {
    const user = await signUp();
    const me = await onA('GET', '/auth/v1/user', user.headers);
    const other = await onA(
      'POST',
      '/auth/v1/token?grant_type=password',
      { apikey: anonKey },
      { email: me.body.email, password: 'Sturdy-Passw0rd!' },
    );
    const otherHeaders = { apikey: anonKey, authorization: `Bearer ${other.body.access_token}` };
    expect((await onB('GET', '/api/tables', otherHeaders)).status).toBe(200);
    const changed = await onA('PUT', '/auth/v1/user', user.headers, { password: 'Another-Passw0rd!' });
    expect(changed.status).toBe(200);
    await seenWithin(WITHIN_MS, async () => (await onB('GET', '/api/tables', otherHeaders)).status === 401);
    // The session that changed the password goes on.
    expect((await onB('GET', '/api/tables', user.headers)).status).toBe(200);
  });

  it('refuses on B the token of a user banned on A', async () => {
    const user = await signUp();
    const me = await onB('GET', '/auth/v1/user', user.headers);
    expect(me.status).toBe(200);
    const service = { apikey: b.serviceKey, authorization: `Bearer ${b.serviceKey}` };
    const banned = await onA('PUT', `/auth/v1/admin/users/${me.body.id}`, service, { ban_duration: '24h' });
    expect(banned.status).toBe(200);
    await seenWithin(WITHIN_MS, async () => (await onB('GET', '/rest/v1/anything', user.headers)).status === 401);
  });

  it("refuses on B an app's keys rolled on A, and serves the new ones", async () => {
    const user = await signUp();
    const before = (await onA('GET', '/api/app', user.headers)).body;
    const appHeaders = (key: string) => ({ apikey: key, authorization: `Bearer ${key}` });
    expect((await onB('GET', '/auth/v1/settings', appHeaders(before.anonKey))).status).toBe(200);
    expect((await onB('GET', '/rest/v1/anything', appHeaders(before.serviceKey))).status).toBe(404);
    const rolled = await onA('POST', '/api/app/roll-keys', user.headers);
    expect(rolled.status).toBe(200);
    await seenWithin(
      WITHIN_MS,
      async () => (await onB('GET', '/auth/v1/settings', appHeaders(before.anonKey))).status === 401,
    );
    expect((await onB('GET', '/rest/v1/anything', appHeaders(before.serviceKey))).status).toBe(401);
    expect((await onB('GET', '/auth/v1/settings', appHeaders(rolled.body.anonKey))).status).toBe(200);
  });

  it("refuses on B an app user's token once signed out or banned on A", async () => {
    const developer = await signUp();
    const app = (await onA('GET', '/api/app', developer.headers)).body;
    const endUser = async (email: string) => {
      const res = await onA(
        'POST',
        '/auth/v1/signup',
        { apikey: app.anonKey },
        { email, password: 'Sturdy-Passw0rd!' },
      );
      expect(res.status).toBe(200);
      return {
        id: res.body.user.id,
        headers: { apikey: app.anonKey, authorization: `Bearer ${res.body.access_token}` },
      };
    };
    const leaving = await endUser(`leaving-${Date.now()}@example.test`);
    expect((await onB('GET', '/rest/v1/anything', leaving.headers)).status).toBe(404);
    expect((await onA('POST', '/auth/v1/logout', leaving.headers)).status).toBe(204);
    await seenWithin(WITHIN_MS, async () => (await onB('GET', '/rest/v1/anything', leaving.headers)).status === 401);

    const banned = await endUser(`banned-${Date.now()}@example.test`);
    expect((await onB('GET', '/rest/v1/anything', banned.headers)).status).toBe(404);
    const ban = await onA('POST', `/api/users/${banned.id}/ban`, developer.headers, { banned: true });
    expect(ban.status).toBe(200);
    await seenWithin(WITHIN_MS, async () => (await onB('GET', '/rest/v1/anything', banned.headers)).status === 401);
  });

  it('emits on B the event of a write on A', async () => {
    const user = await signUp();
    await tableOn(user, 'events');
    const heard: Array<{ event: RecordsChanged; local: boolean }> = [];
    const stop = b.app.basalt.db.bus.subscribe('records.changed', (event, origin) => {
      if (event.tableName === 'events') heard.push({ event, local: origin.local });
    });
    try {
      const created = await onA(
        'POST',
        '/rest/v1/events',
        { ...user.headers, prefer: 'return=representation' },
        {
          title: 'from A',
        },
      );
      expect(created.status).toBe(201);
      await seenWithin(WITHIN_MS, async () => heard.length > 0);
      expect(heard).toHaveLength(1);
      expect(heard[0]?.local).toBe(false);
      expect(heard[0]?.event.changes).toEqual([
        {
          type: 'INSERT',
          record: expect.objectContaining({ title: 'from A', id: created.body[0].id }),
          oldRecord: null,
        },
      ]);
    } finally {
      stop();
    }
  });

  it('trusts no cache on B while its bus connection is down, and again once it is back', async () => {
    const user = await signUp();
    await tableOn(user, 'ledger');
    const keys = [] as Array<{ id: number; headers: Record<string, string> }>;
    for (const name of ['first', 'second']) {
      const created = await onA('POST', '/api/keys', user.headers, { name });
      keys.push({ id: created.body.id, headers: { authorization: `Bearer ${created.body.key}` } });
    }
    for (const key of keys) expect((await onB('GET', '/api/table/ledger', key.headers)).status).toBe(200);

    // Every node's LISTEN connection is cut (a network blip): events sent meanwhile are lost to them.
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    try {
      await admin.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
          WHERE datname = current_database() AND application_name LIKE 'basalt-bus-%' AND application_name NOT LIKE '%-send'`,
      );
    } finally {
      await admin.end();
    }
    await seenWithin(2000, async () => !b.app.basalt.db.bus.reliable);
    // What B reads now it must not keep: it would not hear of the key's deletion.
    expect((await onB('GET', '/api/table/ledger', keys[0]?.headers ?? {})).status).toBe(200);
    expect((await onA('DELETE', `/api/keys/${keys[0]?.id}`, user.headers)).status).toBe(200);
    // Whether B's connection is back by now or not (its reconnection takes as long as it takes on a busy machine),
    // the key is refused: read afresh while the bus was down, or forgotten with everything when it came back.
    expect((await onB('GET', '/api/table/ledger', keys[0]?.headers ?? {})).status).toBe(401);

    await seenWithin(10_000, async () => b.app.basalt.db.bus.reliable);
    expect((await onB('GET', '/api/table/ledger', keys[1]?.headers ?? {})).status).toBe(200);
    expect((await onA('DELETE', `/api/keys/${keys[1]?.id}`, user.headers)).status).toBe(200);
    await seenWithin(
      WITHIN_MS,
      async () => (await onB('GET', '/api/table/ledger', keys[1]?.headers ?? {})).status === 401,
    );
  });
});
