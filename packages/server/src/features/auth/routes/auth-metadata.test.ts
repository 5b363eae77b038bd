import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ApiScenario,
  keyHeaders,
  runScenario,
  type SignedInTestUser,
  signInUser,
  signUpUser,
  startAuthServer,
  users,
} from '../../../testing/auth.fixtures.js';
import { type TestServer, testDialects } from '../../../testing/test-server.js';

// user_metadata and app_metadata are copied into every access token, and every later request carries that
// token in a header: their depth and size are limited wherever they are written (sign-up, PUT /user, the admin
// API), with GoTrue's 400 validation_failed, and nothing is changed by a refused request.

const USER_LIMIT = 4096;
const APP_LIMIT = 2048;
const DEEP = 5000;

/** deepJson is JSON text of an object nested `levels` deep. */
const deepJson = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
/** metadataOfSize is a metadata object whose JSON is exactly `bytes` long. */
const metadataOfSize = (bytes: number) => ({ blob: 'x'.repeat(bytes - JSON.stringify({ blob: '' }).length) });
const refused = (text: string) => ({ code: 400, error_code: 'validation_failed', msg: expect.stringContaining(text) });

describe.each(testDialects)('metadata limits on %s', (dialect) => {
  let server: TestServer;
  let alice: SignedInTestUser;
  beforeAll(async () => {
    server = await startAuthServer(dialect);
    alice = await signUpUser(server, users.alice);
  });
  afterAll(() => server.close());
  // JSON content type on every request: some bodies are sent as raw text.
  const json = { 'content-type': 'application/json' };
  const anon = () => ({ ...keyHeaders(server.anonKey), ...json });
  const service = () => ({ ...keyHeaders(server.serviceKey), ...json });
  const asAlice = () => ({ ...alice.headers, ...json });
  const password = users.bob.password;

  const scenarios: ApiScenario[] = [
    {
      name: 'deep data on sign-up',
      method: 'POST',
      url: '/auth/v1/signup',
      headers: anon,
      body: `{"email":"deep@example.com","password":"${password}","data":${deepJson(DEEP)}}`,
      status: 400,
      expected: refused('nested'),
    },
    {
      name: 'deep data on PUT /user',
      method: 'PUT',
      url: '/auth/v1/user',
      headers: asAlice,
      body: `{"data":${deepJson(DEEP)}}`,
      status: 400,
      expected: refused('nested'),
    },
    {
      name: 'deep user_metadata on an admin create',
      method: 'POST',
      url: '/auth/v1/admin/users',
      headers: service,
      body: `{"email":"deep@example.com","user_metadata":${deepJson(DEEP)}}`,
      status: 400,
      expected: refused('nested'),
    },
    {
      name: 'deep app_metadata on an admin create',
      method: 'POST',
      url: '/auth/v1/admin/users',
      headers: service,
      body: `{"email":"deep@example.com","app_metadata":${deepJson(DEEP)}}`,
      status: 400,
      expected: refused('nested'),
    },
    {
      name: 'deep user_metadata on an admin update',
      method: 'PUT',
      url: () => `/auth/v1/admin/users/${alice.id}`,
      headers: service,
      body: `{"user_metadata":${deepJson(DEEP)}}`,
      status: 400,
      expected: refused('nested'),
    },
    {
      name: 'metadata one level too deep',
      method: 'PUT',
      url: '/auth/v1/user',
      headers: asAlice,
      body: `{"data":${deepJson(33)}}`,
      status: 400,
      expected: refused('nested more than 32 levels'),
    },
    {
      name: '20 KB of data on sign-up',
      method: 'POST',
      url: '/auth/v1/signup',
      headers: anon,
      json: { email: 'big@example.com', password, data: metadataOfSize(20_000) },
      status: 400,
      expected: refused('4 KiB'),
    },
    {
      name: 'user metadata one byte over on PUT /user',
      method: 'PUT',
      url: '/auth/v1/user',
      headers: asAlice,
      // Merged with the stored {"username":"alice"}, the result passes the limit.
      json: { data: metadataOfSize(USER_LIMIT - 18) },
      status: 400,
      expected: refused('4 KiB'),
    },
    {
      name: 'user metadata one byte over on an admin create',
      method: 'POST',
      url: '/auth/v1/admin/users',
      headers: service,
      json: { email: 'big@example.com', user_metadata: metadataOfSize(USER_LIMIT + 1) },
      status: 400,
      expected: refused('4 KiB'),
    },
    {
      name: 'app metadata one byte over on an admin update',
      method: 'PUT',
      url: () => `/auth/v1/admin/users/${alice.id}`,
      headers: service,
      json: { app_metadata: metadataOfSize(APP_LIMIT + 1) },
      status: 400,
      expected: refused('2 KiB'),
    },
  ];

  it.each(scenarios)('refuses $name with 400 and changes nothing', async (scenario) => {
    await runScenario(server, scenario);
    const list = await server.request('GET', '/auth/v1/admin/users', { headers: service() });
    expect(list.body.users.map((u: { email: string }) => u.email)).toEqual([users.alice.email]);
    expect(list.body.users[0].user_metadata).toMatchObject({ username: 'alice' });
    expect(Object.keys(list.body.users[0].app_metadata).sort()).toEqual(['provider', 'providers']);
  });

  it('accepts the largest metadata, and its access token still works on the next request', async () => {
    const deepest = await server.request('PUT', '/auth/v1/user', {
      headers: asAlice(),
      body: `{"data":${deepJson(32)}}`,
    });
    expect(deepest.status).toBe(200);
    const created = await server.request('POST', '/auth/v1/admin/users', {
      headers: service(),
      json: {
        email: users.bob.email,
        password,
        email_confirm: true,
        user_metadata: metadataOfSize(USER_LIMIT),
        app_metadata: metadataOfSize(APP_LIMIT),
      },
    });
    expect(created.status).toBe(200);
    const bob = await signInUser(server, users.bob);
    expect(bob.accessToken.length).toBeLessThan(10_000);
    const me = await server.request('GET', '/auth/v1/user', { headers: bob.headers });
    expect(me.status).toBe(200);
    expect(me.body.user_metadata.blob).toHaveLength(USER_LIMIT - 11);
    const tables = await server.request('GET', '/rest/v1/tables?select=name', { headers: bob.headers });
    expect(tables.status).toBe(200);
  });

  it('lets a user at the limit remove keys to get under it', async () => {
    const bob = await signInUser(server, users.bob);
    const res = await server.request('PUT', '/auth/v1/user', { headers: bob.headers, json: { data: { blob: null } } });
    expect(res.status).toBe(200);
    expect(res.body.user_metadata.blob).toBeUndefined();
  });
});
