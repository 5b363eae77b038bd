import { DEFAULT_FUNCTION_CODE, DEFAULT_FUNCTION_ROUTE } from '@basalt/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appClient } from '../../testing/apps.fixtures.js';
import { users } from '../../testing/auth.fixtures.js';
import { type RestUser, signUpRestUser, startRestServer } from '../../testing/rest.fixtures.js';
import { type TestServer, testDialects } from '../../testing/test-server.js';

// Each account has its own function routes: two accounts deploy the console's default template at its default
// route, and each one's callers (its token, its API key, its app's anon key, its app users) reach its own. Any
// other caller gets a 404 that says nothing of whose function it is.

const hi = (who: string) => DEFAULT_FUNCTION_CODE.replace('Hello ', `Hello from ${who}, `);

describe.each(testDialects)('function routes per account on %s', (dialect) => {
  let server: TestServer;
  const accounts: Record<'alice' | 'bob', { user: RestUser; appKey: string; fn: number }> = Object.create(null);
  let carol: RestUser;

  beforeAll(async () => {
    server = await startRestServer(dialect);
    for (const name of ['alice', 'bob'] as const) {
      const user = await signUpRestUser(server, users[name]);
      // The Create dialog's defaults: the template, my-function at /api/edge/my-function, a signed-in caller.
      const created = await server.request('POST', '/api/edge-functions', {
        headers: user.headers,
        json: { name: 'my-function', route: DEFAULT_FUNCTION_ROUTE, verifyJwt: true, code: hi(name) },
      });
      expect(created.status, created.text).toBe(201);
      const deployed = await server.request('POST', `/api/edge-functions/${created.body.id}/deploy`, {
        headers: user.headers,
      });
      expect(deployed.status, deployed.text).toBe(200);
      const appKey = (await server.request('GET', '/api/app', { headers: user.headers })).body.anonKey;
      accounts[name] = { user, appKey, fn: created.body.id };
    }
    carol = await signUpRestUser(server, users.carol);
  }, 60_000);
  afterAll(() => server.close());

  it('lets each account call its own function at the same default route', async () => {
    for (const name of ['alice', 'bob'] as const) {
      const { user, appKey } = accounts[name];
      const byToken = await server.request('POST', DEFAULT_FUNCTION_ROUTE, { headers: user.headers, json: {} });
      expect(byToken).toMatchObject({ status: 200, body: { message: `Hello from ${name}, world!` } });
      const key = await server.request('POST', '/api/keys', { headers: user.headers, json: { name: 'fn' } });
      const byApiKey = await server.request('POST', `${DEFAULT_FUNCTION_ROUTE}/sub/path`, {
        headers: { authorization: `Bearer ${key.body.key}` },
      });
      expect(byApiKey.body).toEqual({ message: `Hello from ${name}, world!` });
      // supabase-js with the app's anon key calls /functions/v1/<name>: the app names the account.
      const { data, error } = await appClient(server, appKey).functions.invoke('my-function', { body: { name } });
      expect(error).toBeNull();
      expect(data).toEqual({ message: `Hello from ${name}, ${name}!` });
    }
    // Each account's invocations are its own.
    for (const name of ['alice', 'bob'] as const) {
      const { user, fn } = accounts[name];
      const log = await server.request('GET', `/api/edge-functions/${fn}/invocations`, { headers: user.headers });
      expect(log.body).toHaveLength(3);
    }
  });

  it('answers 404 to an account that has no function there, and to a call that names no account', async () => {
    for (const url of [DEFAULT_FUNCTION_ROUTE, '/functions/v1/my-function']) {
      const other = await server.request('POST', url, { headers: carol.headers, json: {} });
      expect(other).toMatchObject({ status: 404, body: { code: 'NOT_FOUND', message: 'Function not found' } });
      expect(other.text).not.toContain('account');
      const nobody = await server.request('POST', url, { json: {} });
      expect(nobody).toMatchObject({ status: 404, body: { code: 'function_ambiguous' } });
    }
    // A route of one account alone is reached without naming it; its function then asks for a JWT of its project.
    const { user } = accounts.alice;
    const only = await server.request('POST', '/api/edge-functions', {
      headers: user.headers,
      json: { name: 'alices-only', code: hi('alice'), verifyJwt: true },
    });
    await server.request('POST', `/api/edge-functions/${only.body.id}/deploy`, { headers: user.headers });
    expect((await server.request('POST', '/api/edge/alices-only')).status).toBe(401);
    const asCarol = await server.request('POST', '/api/edge/alices-only', { headers: carol.headers });
    expect(asCarol.status).toBe(404);
  });

  it('keeps a route unique within an account, and refuses bad routes', async () => {
    const { user } = accounts.bob;
    const again = await server.request('POST', '/api/edge-functions', {
      headers: user.headers,
      json: { name: 'second', route: DEFAULT_FUNCTION_ROUTE, code: 'x' },
    });
    expect(again).toMatchObject({ status: 409, body: { code: 'function_route_taken' } });
    for (const route of ['/api/edge/../my-function', '/api/edge/a\u0000b', '/elsewhere', 42, 'x'.repeat(300)]) {
      const bad = await server.request('POST', '/api/edge-functions', {
        headers: user.headers,
        json: { name: 'bad-route', route, code: 'x' },
      });
      expect(bad.status, String(route)).toBe(400);
    }
  });
});
