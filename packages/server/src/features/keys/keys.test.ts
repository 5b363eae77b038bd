import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from '../../lib/crypto/tokens.js';
import { bearer } from '../../testing/account.fixtures.js';
import {
  type ApiScenario,
  type CookieSession,
  collectionRefusals,
  loginWithCookie,
  runScenario,
  type SignedInTestUser,
  signUpUser,
  startAuthServer,
  users,
} from '../../testing/auth.fixtures.js';

import { type TestServer, testDialects } from '../../testing/test-server.js';
import { listActivity } from '../activity/activity.service.js';
import { CACHE_TTL_MS, createApiKeyLookup } from './keys.lookup.js';
import { deleteApiKeyOf } from './keys.store.js';

const KEY_SHAPE = /^bsk_[A-Za-z0-9_-]{43}$/;
const fieldError = (field: string, message: string) => ({
  code: 'validation_failed',
  message,
  validationErrors: { [field]: [message] },
});

describe.each(testDialects)('API keys on %s', (dialect) => {
  let server: TestServer;
  let alice: SignedInTestUser;
  let bob: SignedInTestUser;
  let aliceCookie: CookieSession;
  let bobKeyId: number;
  let bobKey: string;

  beforeAll(async () => {
    server = await startAuthServer(dialect);
    alice = await signUpUser(server, users.alice);
    bob = await signUpUser(server, users.bob);
    aliceCookie = await loginWithCookie(server, users.alice);
    const created = await server.request('POST', '/api/keys', {
      headers: bearer(bob.accessToken),
      json: { name: 'bob key' },
    });
    bobKeyId = created.body.id;
    bobKey = created.body.key;
  });
  afterAll(() => server.close());

  const asAlice = () => bearer(alice.accessToken);
  const create = (name: unknown, headers = asAlice()) =>
    server.request('POST', '/api/keys', { headers, json: { name } });

  it('creates a key: 201 with the secret once, a recognisable prefix, the name trimmed', async () => {
    const res = await runScenario(server, {
      name: 'create',
      method: 'POST',
      url: '/api/keys',
      headers: asAlice,
      json: { name: '  deploy bot  ', userId: 'someone-else' },
      status: 201,
      expected: {
        id: expect.any(Number),
        name: 'deploy bot',
        createdAt: expect.any(String),
        key: expect.stringMatching(KEY_SHAPE),
      },
      expectedHeaders: { 'cache-control': 'no-store' },
    });
    expect(res.body.prefix).toBe(res.body.key.slice(0, 12));
    // Stored only as a hash: no column holds the secret.
    const row = await server.app.basalt.db.kysely
      .selectFrom('api_keys')
      .selectAll()
      .where('id', '=', res.body.id)
      .executeTakeFirstOrThrow();
    expect(row.key_hash).toBe(sha256(res.body.key));
    expect(JSON.stringify(row)).not.toContain(res.body.key);
    expect(row.account_id).toBe(alice.id);
  });

  it("lists the caller's keys without their secrets, and never another account's", async () => {
    const { body: made } = await create('listed');
    const res = await server.request('GET', '/api/keys', { headers: asAlice() });
    expect(res.status).toBe(200);
    expect(res.body).toContainEqual({
      id: made.id,
      name: 'listed',
      prefix: made.prefix,
      createdAt: made.createdAt,
      lastUsedAt: null,
    });
    expect(res.text).not.toContain(made.key);
    expect(res.body.every((k: Record<string, unknown>) => !('key' in k))).toBe(true);
    expect(res.body.map((k: { id: number }) => k.id)).not.toContain(bobKeyId);
  });

  it('works with the console cookie session and its CSRF token', async () => {
    const ok = await server.request('POST', '/api/keys', {
      headers: aliceCookie.headers,
      json: { name: 'cookie key' },
    });
    expect(ok.status).toBe(201);
    const noCsrf = await server.request('POST', '/api/keys', {
      headers: { cookie: aliceCookie.cookie },
      json: { name: 'x' },
    });
    expect(noCsrf).toMatchObject({ status: 403, body: { code: 'csrf_invalid' } });
    const listed = await server.request('GET', '/api/keys', { headers: { cookie: aliceCookie.cookie } });
    expect(listed.body.map((k: { name: string }) => k.name)).toContain('cookie key');
    const removed = await server.request('DELETE', `/api/keys/${ok.body.id}`, { headers: aliceCookie.headers });
    expect(removed.status).toBe(200);
  });

  const scenarios: ApiScenario[] = [
    ...collectionRefusals('/api/keys', {
      headers: asAlice,
      body: { name: 'x' },
      notFound: { code: 'api_key_not_found', message: 'API key not found' },
    }),
    {
      name: 'a blank name',
      method: 'POST',
      url: '/api/keys',
      headers: asAlice,
      json: { name: '   ' },
      status: 400,
      expected: fieldError('name', 'Name is required'),
    },
    {
      name: 'an empty name',
      method: 'POST',
      url: '/api/keys',
      headers: asAlice,
      json: { name: '' },
      status: 400,
      expected: fieldError('name', 'Name is required'),
    },
    {
      name: 'no name',
      method: 'POST',
      url: '/api/keys',
      headers: asAlice,
      json: {},
      status: 400,
      expected: fieldError('name', 'Name is required'),
    },
    {
      name: 'a name of 101 characters',
      method: 'POST',
      url: '/api/keys',
      headers: asAlice,
      json: { name: 'k'.repeat(101) },
      status: 400,
      expected: fieldError('name', 'Name must be at most 100 characters'),
    },
    {
      name: 'a number as name',
      method: 'POST',
      url: '/api/keys',
      headers: asAlice,
      json: { name: 42 },
      status: 400,
      expected: fieldError('name', 'Name must be text'),
    },
    {
      name: 'null as name',
      method: 'POST',
      url: '/api/keys',
      headers: asAlice,
      json: { name: null },
      status: 400,
      expected: fieldError('name', 'Name must be text'),
    },
  ];
  it.each(scenarios)('$name → $status', (scenario) => runScenario(server, scenario).then(() => undefined));

  it("404s another account's key, which keeps working", async () => {
    const res = await server.request('DELETE', `/api/keys/${bobKeyId}`, { headers: asAlice() });
    expect(res).toMatchObject({ status: 404, body: { code: 'api_key_not_found' } });
    const used = await server.request('GET', '/api/table/nothing_here', { headers: bearer(bobKey) });
    expect(used.status).toBe(404);
  });

  it('refuses API keys on the console endpoints (a signed-in user is needed)', async () => {
    const { body } = await create('no console');
    for (const [method, url] of [
      ['GET', '/api/keys'],
      ['POST', '/api/keys'],
      ['DELETE', `/api/keys/${body.id}`],
      ['GET', '/api/tables'],
    ] as const) {
      const res = await server.request(method, url, {
        headers: bearer(body.key),
        json: method === 'POST' ? { name: 'x' } : undefined,
      });
      expect({ url, status: res.status, code: res.body?.code }).toEqual({
        url,
        status: 403,
        code: 'api_key_not_allowed',
      });
    }
  });

  it('deletes a key: it stops working at once, and both changes are in the activity feed', async () => {
    const { body } = await create('short lived');
    expect((await server.request('GET', '/api/table/nothing_here', { headers: bearer(body.key) })).status).toBe(404);
    const res = await server.request('DELETE', `/api/keys/${body.id}`, { headers: asAlice() });
    expect(res).toMatchObject({ status: 200, body: { success: true, message: 'API key deleted successfully' } });
    const refused = await server.request('GET', '/api/table/nothing_here', { headers: bearer(body.key) });
    expect(refused).toMatchObject({
      status: 401,
      body: { error: { code: 'INVALID_API_KEY', message: 'Missing or invalid API key' } },
    });
    expect((await server.request('DELETE', `/api/keys/${body.id}`, { headers: asAlice() })).status).toBe(404);
    const feed = await listActivity(server.app.basalt.db.kysely, alice.id, { page: 1, limit: 50 });
    const keyEntries = feed.data.filter((e) => e.resource === 'apiKeys' && e.details?.name === 'short lived');
    expect(keyEntries.map((e) => e.action)).toEqual(['DELETE', 'CREATE']);
  });

  it('records when a key was last used', async () => {
    const { body } = await create('used');
    await server.request('GET', '/api/table/nothing_here', { headers: bearer(body.key) });
    await expect
      .poll(
        async () =>
          (await server.request('GET', '/api/keys', { headers: asAlice() })).body.find(
            (k: { id: number }) => k.id === body.id,
          )?.lastUsedAt,
      )
      .toEqual(expect.any(String));
  });

  it('refuses a key deleted without an event once its entry expires', async () => {
    const { body } = await create('two processes');
    const clock = { ms: Date.now() };
    const other = createApiKeyLookup(server.app.basalt.db, { now: () => clock.ms });
    expect(await other.resolve(body.key)).toEqual({ keyId: body.id, accountId: alice.id });
    // Deleted behind the bus's back, as when a node missed the event.
    await deleteApiKeyOf(server.app.basalt.db.kysely, alice.id, body.id);
    // Still trusted from its cache within the TTL (the documented trade-off)…
    expect(await other.resolve(body.key)).toEqual({ keyId: body.id, accountId: alice.id });
    clock.ms += CACHE_TTL_MS;
    // …and refused once the entry is re-read.
    expect(await other.resolve(body.key)).toBeNull();
  });

  it('answers a key in use at once across its entry’s end, reading it again in the background', async () => {
    const { body } = await create('in use');
    const clock = { ms: Date.now() };
    const lookup = createApiKeyLookup(server.app.basalt.db, { now: () => clock.ms });
    expect(await lookup.resolve(body.key)).toEqual({ keyId: body.id, accountId: alice.id });
    let readAt = clock.ms;
    for (let minute = 1; minute <= 3; minute++) {
      clock.ms = readAt + CACHE_TTL_MS - 5_000;
      expect(lookup.resolve(body.key)).toEqual({ keyId: body.id, accountId: alice.id });
      await new Promise((resolve) => setTimeout(resolve, 50));
      readAt = clock.ms;
      clock.ms = readAt + 10_000;
      expect({ minute, found: lookup.resolve(body.key) }).toEqual({
        minute,
        found: { keyId: body.id, accountId: alice.id },
      });
    }
    // A deletion that no event told this cache of shows once the entry is read again.
    await deleteApiKeyOf(server.app.basalt.db.kysely, alice.id, body.id);
    clock.ms = readAt + CACHE_TTL_MS - 5_000;
    expect(lookup.resolve(body.key)).toEqual({ keyId: body.id, accountId: alice.id });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(lookup.resolve(body.key)).toBeNull();
  });

  it('forgets a cached key when its hash is evicted, and reads it again', async () => {
    const { body } = await create('evicted');
    const lookup = createApiKeyLookup(server.app.basalt.db);
    expect(await lookup.resolve(body.key)).toEqual({ keyId: body.id, accountId: alice.id });
    // Cached: answered without a database read.
    expect(lookup.resolve(body.key)).toEqual({ keyId: body.id, accountId: alice.id });
    await deleteApiKeyOf(server.app.basalt.db.kysely, alice.id, body.id);
    lookup.evict(sha256(body.key));
    const reread = lookup.resolve(body.key);
    expect(reread).toBeInstanceOf(Promise);
    expect(await reread).toBeNull();
  });

  it('refuses malformed and unknown keys without trusting them', async () => {
    const lookup = createApiKeyLookup(server.app.basalt.db);
    expect(lookup.resolve('bsk_short')).toBeNull();
    expect(lookup.resolve(`bsk_${'A'.repeat(43)}'; DROP TABLE api_keys; --`)).toBeNull();
    expect(await lookup.resolve(`bsk_${'A'.repeat(43)}`)).toBeNull();
  });
});
