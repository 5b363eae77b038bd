import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  appClient,
  appKeyHeaders,
  createAppTable,
  type Developer,
  type EndUserClient,
  signUpEndUser,
  startDeveloper,
} from '../../testing/apps.fixtures.js';
import { signUpUser, startAuthServer, users } from '../../testing/auth.fixtures.js';
import { concrete, routesOf } from '../../testing/routes.fixtures.js';
import { type TestServer, testDialects } from '../../testing/test-server.js';

// Apps are walled off from each other and from the console (issue "Apps with their own users"): a token or key of
// app X is refused by app Y, end users are not console accounts (and the other way round), the same email lives
// separately in two apps and the console, and nothing under /api opens to an app's key or user.

// /api routes that need no signed-in account at all: they answer an app's token as they answer anyone.
const OPEN_ROUTES = new Set([
  'GET /api/health',
  'GET /api/health/database',
  'GET /api/config',
  'GET /api/csrf-token',
  'POST /api/auth/register',
  'POST /api/auth/login',
  'POST /api/auth/logout',
  // Stripe calls it without credentials; its signature is what it checks (billing.stripe.test.ts).
  'POST /api/billing/webhook',
]);

describe.each(testDialects)('apps are isolated on %s', (dialect) => {
  let server: TestServer;
  let x: Developer;
  let y: Developer;
  let xUser: EndUserClient;
  let yUser: EndUserClient;

  beforeAll(async () => {
    server = await startAuthServer(dialect);
    x = await startDeveloper(server, users.alice);
    y = await startDeveloper(server, users.bob);
    const open = { select: 'public', insert: 'authenticated', update: 'nobody', delete: 'nobody' };
    await createAppTable(server, x, { name: 'posts', schema: { body: { type: 'text' } }, access: open });
    await createAppTable(server, y, { name: 'posts', schema: { body: { type: 'text' } }, access: open });
    await x.client.from('posts').insert({ body: 'x' }).throwOnError();
    await y.client.from('posts').insert({ body: 'y' }).throwOnError();
    // The same address in both apps, and the developer's own address in X: three separate people.
    xUser = await signUpEndUser(server, x, 'same@example.com');
    yUser = await signUpEndUser(server, y, 'same@example.com');
  });
  afterAll(() => server.close());

  it('serves each app its own tables, and the same email as separate users', async () => {
    expect(xUser.id).not.toBe(yUser.id);
    expect((await xUser.client.from('posts').select('body')).data).toEqual([{ body: 'x' }]);
    expect((await yUser.client.from('posts').select('body')).data).toEqual([{ body: 'y' }]);
    const alsoDeveloper = await signUpEndUser(server, x, users.alice.email);
    expect(alsoDeveloper.id).not.toBe(x.id);
    const me = await alsoDeveloper.client.auth.getUser();
    expect(me.data.user?.email).toBe(users.alice.email);
  });

  it("refuses app X's tokens and keys in app Y", async () => {
    const crossed = { apikey: y.app.anonKey, authorization: `Bearer ${xUser.accessToken}` };
    const rest = await server.request('GET', '/rest/v1/posts', { headers: crossed });
    expect(rest.status).toBe(401);
    expect(rest.body.code).toBe('PGRST301');
    const user = await server.request('GET', '/auth/v1/user', { headers: crossed });
    expect(user.status).toBe(403);
    expect(user.body.error_code).toBe('bad_jwt');
    const keyMix = await server.request('GET', '/rest/v1/posts', {
      headers: { apikey: y.app.anonKey, authorization: `Bearer ${x.app.serviceKey}` },
    });
    expect(keyMix.status).toBe(401);
    // Known keys are looked up by their signatures: Y's claims under X's signature, once X's key is known, are no key.
    expect((await server.request('GET', '/rest/v1/posts', { headers: appKeyHeaders(x.app.anonKey) })).status).toBe(200);
    const forged = `${y.app.anonKey.slice(0, y.app.anonKey.lastIndexOf('.'))}${x.app.anonKey.slice(x.app.anonKey.lastIndexOf('.'))}`;
    const forgedRead = await server.request('GET', '/rest/v1/posts', { headers: appKeyHeaders(forged) });
    expect(forgedRead.status).toBe(401);
    // X's service key cannot administer Y's users.
    const admin = await server.request('GET', '/auth/v1/admin/users', {
      headers: { apikey: y.app.anonKey, authorization: `Bearer ${x.app.serviceKey}` },
    });
    expect(admin.status).toBe(403);
    expect(admin.body.error_code).toBe('not_admin');
    // X's refresh token means nothing to Y.
    const { data } = await appClient(server, x.app.anonKey).auth.signInWithPassword({
      email: 'same@example.com',
      password: 'End-User-Passw0rd!',
    });
    const refresh = await server.request('POST', '/auth/v1/token?grant_type=refresh_token', {
      headers: appKeyHeaders(y.app.anonKey),
      json: { refresh_token: data.session?.refresh_token },
    });
    expect(refresh.status).toBe(400);
    expect(refresh.body.error_code).toBe('refresh_token_not_found');
  });

  it('keeps end users and console accounts apart', async () => {
    // A console account cannot sign in with an app key (it is no user of the app) …
    const viaApp = await appClient(server, y.app.anonKey).auth.signInWithPassword({
      email: users.bob.email,
      password: users.bob.password,
    });
    expect(viaApp.error?.code).toBe('invalid_credentials');
    // … and an end user cannot sign in to the console.
    const console = await appClient(server, server.anonKey).auth.signInWithPassword({
      email: 'same@example.com',
      password: 'End-User-Passw0rd!',
    });
    expect(console.error?.code).toBe('invalid_credentials');
    const login = await server.request('POST', '/api/auth/login', {
      json: { email: 'same@example.com', password: 'End-User-Passw0rd!' },
    });
    expect(login.status).toBe(401);
    // A console token with an app key, and an end user's token with the instance key, are refused.
    expect(
      (
        await server.request('GET', '/auth/v1/user', {
          headers: { apikey: x.app.anonKey, authorization: `Bearer ${x.accessToken}` },
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await server.request('GET', '/rest/v1/posts', {
          headers: { apikey: x.app.anonKey, authorization: `Bearer ${x.accessToken}` },
        })
      ).status,
    ).toBe(401);
    expect(
      (
        await server.request('GET', '/rest/v1/posts', {
          headers: { apikey: server.anonKey, authorization: `Bearer ${xUser.accessToken}` },
        })
      ).status,
    ).toBe(401);
  });

  it('opens nothing under /api to an end user token or an app key (401)', async () => {
    const routes = routesOf(server.app, '/api/').filter((route) => !OPEN_ROUTES.has(`${route.method} ${route.path}`));
    expect(routes.length).toBeGreaterThan(30);
    const credentials = {
      'end user token': { apikey: x.app.anonKey, authorization: `Bearer ${xUser.accessToken}` },
      'app anon key': appKeyHeaders(x.app.anonKey),
      'app service key': appKeyHeaders(x.app.serviceKey),
    };
    const answers: string[] = [];
    for (const [what, headers] of Object.entries(credentials)) {
      for (const route of routes) {
        const path = concrete(route.path, route.path.includes('users/:id') ? xUser.id : '1').replace(':name', 'posts');
        const res = await server.request(route.method, path, {
          headers,
          ...(route.method === 'GET' || route.method === 'DELETE' ? {} : { json: {} }),
        });
        if (res.status !== 401) answers.push(`${what}: ${route.method} ${path} → ${res.status}`);
      }
    }
    expect(answers).toEqual([]);
  });

  it('refuses rolled keys at once, and the keys of a deleted account', async () => {
    const before = x.app;
    const rolled = await server.request('POST', '/api/app/roll-keys', { headers: x.headers });
    expect(rolled.status).toBe(200);
    expect(rolled.body.anonKey).not.toBe(before.anonKey);
    expect((await server.request('GET', '/rest/v1/posts', { headers: appKeyHeaders(before.anonKey) })).status).toBe(
      401,
    );
    expect((await server.request('GET', '/auth/v1/settings', { headers: appKeyHeaders(before.anonKey) })).status).toBe(
      401,
    );
    expect(
      (await server.request('GET', '/rest/v1/posts?select=body', { headers: appKeyHeaders(rolled.body.anonKey) })).body,
    ).toEqual([{ body: 'x' }]);
    // The users' sessions live on with the new key.
    const withNewKey = { apikey: rolled.body.anonKey, authorization: `Bearer ${xUser.accessToken}` };
    expect((await server.request('GET', '/auth/v1/user', { headers: withNewKey })).status).toBe(200);

    const doomed = await signUpUser(server, users.carol);
    const app = await server.request('GET', '/api/app', { headers: doomed.headers });
    const deleted = await server.request('DELETE', '/api/user', {
      headers: doomed.headers,
      json: { confirm: users.carol.username },
    });
    expect(deleted.status).toBe(200);
    expect((await server.request('GET', '/rest/v1/posts', { headers: appKeyHeaders(app.body.anonKey) })).status).toBe(
      401,
    );
    expect(
      (await server.request('POST', '/auth/v1/signup', { headers: appKeyHeaders(app.body.anonKey), json: {} })).status,
    ).toBe(401);
  });
});
