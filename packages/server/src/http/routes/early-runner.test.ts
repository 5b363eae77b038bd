import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Developer, type EndUserClient, signUpEndUser, startDeveloper } from '../../testing/apps.fixtures.js';
import { users } from '../../testing/auth.fixtures.js';
import { createTable, type KeyedUser, seedItems, signUpWithKey } from '../../testing/public-api.fixtures.js';
import { startTestServer, type TestServer, testDialects } from '../../testing/test-server.js';

// The routes answered early, before Fastify sees them (http/routes/early-runner.ts), must be indistinguishable from
// Fastify's answers: two servers seeded alike, one with FAST_READS off, get the same requests and must give the
// same status, headers and body, while the first one really answers the ordinary reads itself.

interface Seeded {
  server: TestServer;
  alice: KeyedUser;
  developer: Developer;
  ann: EndUserClient;
  ben: EndUserClient;
  bensTodo: number;
}

async function seed(server: TestServer): Promise<Seeded> {
  const alice = await signUpWithKey(server, users.alice);
  await createTable(server, alice, 'items');
  await seedItems(server, alice, 'items', 5);
  const developer = await startDeveloper(server, users.bob);
  const created = await server.request('POST', '/api/tables', {
    headers: developer.headers,
    json: {
      name: 'todos',
      schema: { title: { type: 'text', required: true }, owner: { type: 'text' } },
      access: { select: 'own', insert: 'own', update: 'own', delete: 'own', ownerColumn: 'owner' },
    },
  });
  if (created.status !== 201) throw new Error(`todos: ${created.status} ${created.text}`);
  const ann = await signUpEndUser(server, developer, 'ann@example.com');
  const ben = await signUpEndUser(server, developer, 'ben@example.com');
  let bensTodo = 0;
  for (const [user, title] of [
    [ann, 'ann 1'],
    [ben, 'ben 1'],
    [ann, 'ann 2'],
  ] as const) {
    const res = await server.request('POST', '/rest/v1/todos', {
      headers: { ...user.headers, prefer: 'return=representation' },
      json: { title },
    });
    if (res.status !== 201) throw new Error(`todo: ${res.status} ${res.text}`);
    if (user === ben) bensTodo = res.body[0].id;
  }
  return { server, alice, developer, ann, ben, bensTodo };
}

type Read = [name: string, path: string, headers: (s: Seeded) => Record<string, string>];

const OBJECT = { accept: 'application/vnd.pgrst.object+json' };
const restAs = (s: Seeded) => ({ apikey: s.server.anonKey, authorization: `Bearer ${s.alice.accessToken}` });

const READS: Read[] = [
  ['a get with an API key', '/api/table/items/1', (s) => s.alice.keyHeaders],
  ['a get with a token', '/api/table/items/2', (s) => s.alice.tokenHeaders],
  ['a list with filters', '/api/table/items?qty=gt.10&orderBy=qty&order=desc&limit=2', (s) => s.alice.keyHeaders],
  ['a missing record', '/api/table/items/999', (s) => s.alice.keyHeaders],
  ['an id that is not one', '/api/table/items/abc', (s) => s.alice.keyHeaders],
  ['a missing table', '/api/table/nope/1', (s) => s.alice.keyHeaders],
  ['a bad filter', '/api/table/items?qty=zz.1', (s) => s.alice.keyHeaders],
  ['no credentials', '/api/table/items/1', () => ({})],
  ['a wrong key', '/api/table/items/1', () => ({ authorization: 'Bearer bsk_not-a-key' })],
  ['an end user on /api', '/api/table/items/1', (s) => ({ authorization: `Bearer ${s.ann.accessToken}` })],
  [
    'a request id and an origin',
    '/api/table/items/3',
    (s) => ({ ...s.alice.keyHeaders, 'x-request-id': 'trace-1', origin: 'https://app.example.com' }),
  ],
  ['a trailing slash', '/api/table/items/1/', (s) => s.alice.keyHeaders],
  ['an encoded name', '/api/table/it%65ms/1', (s) => s.alice.keyHeaders],
  ['a singular rest read', '/rest/v1/items?select=*&id=eq.1', (s) => ({ ...restAs(s), ...OBJECT })],
  [
    'a rest read with an API key',
    '/rest/v1/items?select=name&id=eq.2',
    (s) => ({
      apikey: s.server.anonKey,
      ...s.alice.keyHeaders,
    }),
  ],
  [
    'a counted rest page (206)',
    '/rest/v1/items?select=name,qty&order=qty.desc&limit=2',
    (s) => ({ ...restAs(s), prefer: 'count=exact' }),
  ],
  ['no singular row (406)', '/rest/v1/items?select=*&id=eq.999', (s) => ({ ...restAs(s), ...OBJECT })],
  ['an unknown column', '/rest/v1/items?select=nope', restAs],
  ['no apikey', '/rest/v1/items?select=id', (s) => ({ authorization: `Bearer ${s.alice.accessToken}` })],
  [
    'an apikey in the query',
    '/rest/v1/items?select=id&apikey=ANON',
    (s) => ({
      authorization: `Bearer ${s.alice.accessToken}`,
    }),
  ],
  // Fastify has no route for it; a fast read must not take its tail for `/api/table/<name>/<id>`.
  [
    'a rest path with a second segment',
    '/rest/v1/abitems/1',
    (s) => ({ apikey: s.server.anonKey, ...s.alice.keyHeaders }),
  ],
  ['the tables resource', '/rest/v1/tables?select=name', restAs],
  ['an end user under own rows', '/rest/v1/todos?select=title&order=id', (s) => s.ann.headers],
  ['another user’s row', '/rest/v1/todos?select=title&id=eq.BEN', (s) => ({ ...s.ann.headers, ...OBJECT })],
  ['signed out on an app', '/rest/v1/todos?select=title', (s) => ({ apikey: s.developer.app.anonKey })],
  [
    'an end user on the instance key',
    '/rest/v1/todos?select=title',
    (s) => ({
      apikey: s.server.anonKey,
      authorization: `Bearer ${s.ann.accessToken}`,
    }),
  ],
];

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const TIMESTAMP = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)?/g;
const PER_RESPONSE = new Set(['date', 'x-request-id', 'keep-alive', 'connection']);

async function answerOf(s: Seeded, [, path, headers]: Read) {
  const url = path.replace('ANON', s.server.anonKey).replace('BEN', String(s.bensTodo));
  const res = await s.server.request('GET', url, { headers: headers(s) });
  const kept = [...res.headers].filter(([name]) => !PER_RESPONSE.has(name));
  const given = headers(s)['x-request-id'];
  return {
    status: res.status,
    headers: Object.fromEntries(kept.map(([name, value]) => [name, value.replace(TIMESTAMP, 'T')])),
    requestId: given ? res.headers.get('x-request-id') : typeof res.headers.get('x-request-id'),
    body: res.text.replace(UUID, 'U').replace(TIMESTAMP, 'T'),
  };
}

describe.each(testDialects)('the early runner (%s)', (dialect) => {
  let fast: Seeded;
  let plain: Seeded;

  beforeAll(async () => {
    const [fastServer, plainServer] = await Promise.all([
      startTestServer(dialect, { authRateLimit: 1000 }),
      startTestServer(dialect, { authRateLimit: 1000, fastReads: false }),
    ]);
    fast = await seed(fastServer);
    plain = await seed(plainServer);
  }, 120_000);

  afterAll(async () => {
    await Promise.all([fast?.server.close(), plain?.server.close()]);
  });

  it('answers every read exactly as Fastify does: status, headers and body', async () => {
    // Twice: the first request of a token verifies it (Fastify's path); the second is answered from the cache.
    for (const round of [1, 2]) {
      for (const read of READS) {
        const [mine, theirs] = await Promise.all([answerOf(fast, read), answerOf(plain, read)]);
        expect({ round, read: read[0], ...mine }).toEqual({ round, read: read[0], ...theirs });
      }
    }
    expect(plain.server.app.earlyRunner.answered).toBe(0);
  });

  it('answers the ordinary reads itself and leaves every refusal to Fastify', async () => {
    const answeredBy = async (read: Read) => {
      const before = fast.server.app.earlyRunner.answered;
      await answerOf(fast, read);
      return fast.server.app.earlyRunner.answered - before;
    };
    const named = (name: string) => READS.find(([n]) => n === name) as Read;
    for (const ordinary of [
      'a get with an API key',
      'a list with filters',
      'a singular rest read',
      'a counted rest page (206)',
      'an end user under own rows',
      'signed out on an app',
      'an apikey in the query',
    ]) {
      expect({ ordinary, answered: await answeredBy(named(ordinary)) }).toEqual({ ordinary, answered: 1 });
    }
    for (const refused of [
      'a missing record',
      'a bad filter',
      'no credentials',
      'a wrong key',
      'no singular row (406)',
      'an encoded name',
      'a rest path with a second segment',
    ]) {
      expect({ refused, answered: await answeredBy(named(refused)) }).toEqual({ refused, answered: 0 });
    }
  });

  it('answers requests read together in order, each with its own answer, when one in between goes to Fastify', async () => {
    // Pipelined on one connection, the requests are read in one turn; fast answers are sent at its end together
    // (http/routes/early-runner.ts), and the missing record's 404 comes later from Fastify, in its place.
    const ids = [1, 2, 999, 3, 4, 5, 2];
    const authorization = fast.alice.keyHeaders.authorization as string;
    const raw = ids
      .map((id) => `GET /api/table/items/${id} HTTP/1.1\r\nhost: x\r\nauthorization: ${authorization}\r\n\r\n`)
      .join('');
    const before = fast.server.app.earlyRunner.answered;
    const answers = await pipelined(fast.server.url, raw, ids.length);
    expect(answers.map((a) => [a.status, a.status === 200 ? JSON.parse(a.body).id : null])).toEqual(
      ids.map((id) => (id === 999 ? [404, null] : [200, id])),
    );
    expect(fast.server.app.earlyRunner.answered - before).toBe(ids.length - 1);
  });

  it('answers a hundred requests read together, in order', async () => {
    // More answers than wait at a time (http/routes/early-runner.ts): some go out before the turn ends, the rest at its end.
    const ids = Array.from({ length: 100 }, (_, i) => (i % 5) + 1);
    const authorization = fast.alice.keyHeaders.authorization as string;
    const raw = ids
      .map((id) => `GET /api/table/items/${id} HTTP/1.1\r\nhost: x\r\nauthorization: ${authorization}\r\n\r\n`)
      .join('');
    const answers = await pipelined(fast.server.url, raw, ids.length);
    expect(answers.map((a) => [a.status, JSON.parse(a.body).id])).toEqual(ids.map((id) => [200, id]));
  });

  it('refuses a deleted key on the next read', async () => {
    const created = await fast.server.request('POST', '/api/keys', {
      headers: fast.alice.tokenHeaders,
      json: { name: 'short-lived' },
    });
    const headers = { authorization: `Bearer ${created.body.key}` };
    expect((await fast.server.request('GET', '/api/table/items/1', { headers })).status).toBe(200);
    expect((await fast.server.request('GET', '/api/table/items/1', { headers })).status).toBe(200);
    const removed = await fast.server.request('DELETE', `/api/keys/${created.body.id}`, {
      headers: fast.alice.tokenHeaders,
    });
    expect(removed.status).toBeLessThan(300);
    const after = await fast.server.request('GET', '/api/table/items/1', { headers });
    expect(after.status).toBe(401);
    expect(after.body.error.code).toBe('INVALID_API_KEY');
  });

  it('counts a fast read against the rate limit once, and lets Fastify refuse the one over it', async () => {
    const limited = await startTestServer(dialect, { authRateLimit: 1000, apiRateLimit: 3 });
    try {
      const alice = await signUpWithKey(limited, users.alice);
      await createTable(limited, alice, 'items');
      // The key's first use looks it up (Fastify's path); /rest/v1 has no rate limit.
      const warm = await limited.request('GET', '/rest/v1/items?select=id', {
        headers: { apikey: limited.anonKey, ...alice.keyHeaders },
      });
      expect(warm.status).toBe(200);
      const before = limited.app.earlyRunner.answered;
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) {
        statuses.push((await limited.request('GET', '/api/table/items', { headers: alice.keyHeaders })).status);
      }
      expect(statuses).toEqual([200, 200, 200, 429, 429]);
      expect(limited.app.earlyRunner.answered - before).toBe(3);
    } finally {
      await limited.close();
    }
  });
});

// pipelined writes raw HTTP/1.1 requests at once on one connection and reads `count` answers back, in order.
function pipelined(url: string, raw: string, count: number): Promise<{ status: number; body: string }[]> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.write(raw));
    let received = Buffer.alloc(0);
    const answers: { status: number; body: string }[] = [];
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      for (;;) {
        const end = received.indexOf('\r\n\r\n');
        if (end === -1) break;
        const head = received.subarray(0, end).toString('latin1');
        const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
        if (received.length < end + 4 + length) break;
        answers.push({
          status: Number(head.split(' ')[1]),
          body: received.subarray(end + 4, end + 4 + length).toString('utf8'),
        });
        received = received.subarray(end + 4 + length);
      }
      if (answers.length === count) {
        socket.end();
        resolve(answers);
      }
    });
    socket.on('error', reject);
    socket.setTimeout(10_000, () => reject(new Error(`only ${answers.length} of ${count} answers`)));
  });
}
