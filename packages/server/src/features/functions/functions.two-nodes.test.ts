import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateKey } from '../../lib/crypto/envelope.js';
import { type ServerProcess, startServerProcess } from '../../testing/server-process.js';
import { createTestDatabase, startTestServer, type TestServer } from '../../testing/test-server.js';

// Two Basalt nodes on one PostgreSQL, with the same master key (BASALT_MASTER_KEY, as docs/functions.md asks):
// what node A deploys, rolls back, deletes or changes in the secrets, node B runs from its next call — B's cached
// route and its running process are retired by the event A publishes after its commit.

const masterKey = generateKey().toString('base64');

async function call(base: string, method: string, path: string, headers: Record<string, string> = {}, json?: unknown) {
  const res = await fetch(base + path, {
    method,
    headers: json === undefined ? headers : { ...headers, 'content-type': 'application/json' },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Plain text.
  }
  return { status: res.status, text, body };
}

// Asks until the probe says yes; a call right after the change may start a new process (a cold start).
async function eventually(probe: () => Promise<boolean>, limitMs = 3000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`not seen within ${limitMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe.skipIf(!process.env.TEST_DATABASE_URL)('edge functions on two nodes', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let a: ServerProcess;
  let b: TestServer;
  let auth: Record<string, string>;

  beforeAll(async () => {
    database = await createTestDatabase();
    a = await startServerProcess({ DATABASE_URL: database.url, AUTH_RATE_LIMIT: '1000', BASALT_MASTER_KEY: masterKey });
    b = await startTestServer('postgres', { databaseUrl: database.url, masterKey });
    const registered = await call(
      a.url,
      'POST',
      '/api/auth/register',
      {},
      {
        username: 'nodes',
        email: 'nodes@example.com',
        password: 'Nodes!pass1',
      },
    );
    auth = {
      authorization: `Bearer ${(registered.body as { session: { access_token: string } }).session.access_token}`,
    };
  }, 60_000);

  afterAll(async () => {
    await b?.close();
    await a?.stop();
    await database?.drop();
  });

  it('runs on B what A deployed, rolled back and deleted, and the secrets A changed', async () => {
    const made = await call(a.url, 'POST', '/api/edge-functions', auth, {
      name: 'which',
      verifyJwt: false,
      code: `Deno.serve(() => { let s = 'none'; try { s = Deno.env.get('COLOR') ?? 'none'; } catch {} return new Response('one ' + s); });`,
    });
    const id = (made.body as { id: number }).id;
    await call(a.url, 'POST', `/api/edge-functions/${id}/deploy`, auth);
    expect((await call(b.url, 'GET', '/api/edge/which')).text).toBe('one none');

    await call(a.url, 'POST', '/api/secrets', auth, { name: 'COLOR', value: 'blue' });
    await eventually(async () => (await call(b.url, 'GET', '/api/edge/which')).text === 'one blue');

    await call(a.url, 'PATCH', `/api/edge-functions/${id}`, auth, {
      code: `Deno.serve(() => new Response('two ' + Deno.env.get('COLOR')));`,
    });
    await call(a.url, 'POST', `/api/edge-functions/${id}/deploy`, auth);
    await eventually(async () => (await call(b.url, 'GET', '/api/edge/which')).text === 'two blue');

    await call(a.url, 'POST', `/api/edge-functions/${id}/rollback`, auth, { version: 1 });
    await eventually(async () => (await call(b.url, 'GET', '/api/edge/which')).text === 'one blue');

    await call(a.url, 'DELETE', `/api/edge-functions/${id}`, auth);
    await eventually(async () => (await call(b.url, 'GET', '/api/edge/which')).status === 404);
  });
});
