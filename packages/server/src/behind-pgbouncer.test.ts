import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasPgBouncer, type PgBouncer, startPgBouncer } from '../../../scripts/pgbouncer.mjs';
import { callNode, type ServerProcess, startServerProcess } from './testing/server-process.js';
import { createTestDatabase } from './testing/test-server.js';

// Two Basalt nodes behind a real PgBouncer in transaction mode, as managed PostgreSQL is often run: two server
// connections for both nodes' pools, so that one client's next transaction runs on a connection another client
// used. With DATABASE_POOL_MODE=transaction nothing is prepared by name (a statement prepared on one connection
// is missing on the next, or another has its name), nothing is sent at connection start (the pooler refuses it),
// and the bus listens over DATABASE_DIRECT_URL, so the nodes still hear each other at once.

const STATEMENT_TIMEOUT_MS = 12_345;

describe.skipIf(!process.env.TEST_DATABASE_URL || !hasPgBouncer())('Basalt behind PgBouncer (transaction mode)', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let bouncer: PgBouncer;
  let a: ServerProcess;
  let b: ServerProcess;
  let headers: Record<string, string>;

  beforeAll(async () => {
    database = await createTestDatabase();
    bouncer = await startPgBouncer(database.url, { poolSize: 2 });
    const env = {
      DATABASE_URL: bouncer.urlOf(database.url),
      DATABASE_DIRECT_URL: database.url,
      DATABASE_POOL_MODE: 'transaction',
      DATABASE_STATEMENT_TIMEOUT_MS: String(STATEMENT_TIMEOUT_MS),
      SITE_URL: 'http://basalt.pooled.test',
      AUTH_RATE_LIMIT: '1000',
      API_RATE_LIMIT: '1000000',
    };
    // Generous: a hang guard for a loaded machine, not a measure.
    a = await startServerProcess(env, 90_000);
    b = await startServerProcess(env, 90_000);
    const anonKey = (await callNode(a.url, 'GET', '/api/config', {})).body.anonKey;
    const signUp = await callNode(
      a.url,
      'POST',
      '/auth/v1/signup',
      { apikey: anonKey },
      { email: 'pooled@example.test', password: 'Sturdy-Passw0rd!' },
    );
    expect(signUp.status).toBe(200);
    headers = { apikey: anonKey, authorization: `Bearer ${signUp.body.access_token}` };
  }, 240_000);

  afterAll(async () => {
    await a?.stop();
    await b?.stop();
    await bouncer?.stop();
    await database?.drop();
  });

  it('writes and reads through the pooler on both nodes, many at once, without a failed statement', async () => {
    const table = await callNode(a.url, 'POST', '/api/tables', headers, {
      name: 'notes',
      schema: { title: { type: 'text', required: true } },
    });
    expect(table.status).toBe(201);
    const created = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        callNode(
          i % 2 ? a.url : b.url,
          'POST',
          '/rest/v1/notes',
          { ...headers, prefer: 'return=representation' },
          {
            title: `note ${i}`,
          },
        ),
      ),
    );
    expect(created.map((r) => r.status)).toEqual(created.map(() => 201));
    const ids = created.map((r) => r.body[0].id as number);
    // Gets by id are what a node would otherwise prepare by name, once per connection it believes it has.
    for (let round = 0; round < 3; round++) {
      const reads = await Promise.all(
        ids.flatMap((id) =>
          [a.url, b.url].map((url) => callNode(url, 'GET', `/rest/v1/notes?id=eq.${id}&select=title`, headers)),
        ),
      );
      expect(reads.filter((r) => r.status !== 200 || r.body.length !== 1).map((r) => r.body)).toEqual([]);
    }
    const list = await callNode(b.url, 'GET', '/rest/v1/notes?select=id&order=id', headers);
    expect(list.body).toHaveLength(30);
  });

  it('hears on one node what the other changed, at once (the bus listens on the direct connection)', async () => {
    const table = await callNode(a.url, 'POST', '/api/tables', headers, {
      name: 'tasks',
      schema: { title: { type: 'text', required: true } },
    });
    // B reads and caches the definition, then A adds a column.
    expect((await callNode(b.url, 'GET', '/rest/v1/tasks?select=*', headers)).status).toBe(200);
    const change = await callNode(a.url, 'PUT', `/api/tables/${table.body.id}/schema`, headers, {
      schema: { ...table.body.schema, note: { type: 'text' } },
    });
    expect(change.status).toBe(200);
    const started = Date.now();
    for (;;) {
      const write = await callNode(b.url, 'POST', '/rest/v1/tasks', headers, { title: 't', note: 'n' });
      if (write.status === 201) break;
      expect(Date.now() - started, JSON.stringify(write.body)).toBeLessThan(2000);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  });

  it("gives the pooler's sessions the statement timeout and UTC as the role's defaults", async () => {
    const client = new pg.Client({ connectionString: bouncer.urlOf(database.url) });
    await client.connect();
    try {
      const timeout = await client.query('SHOW statement_timeout');
      const zone = await client.query('SHOW TimeZone');
      expect([timeout.rows[0].statement_timeout, zone.rows[0].TimeZone]).toEqual([`${STATEMENT_TIMEOUT_MS}ms`, 'UTC']);
    } finally {
      await client.end();
    }
  });
});
