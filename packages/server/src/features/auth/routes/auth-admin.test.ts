import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ApiScenario,
  keyHeaders,
  runScenario,
  type SignedInTestUser,
  signUpUser,
  startAuthServer,
  users,
} from '../../../testing/auth.fixtures.js';
import { type TestServer, testDialects } from '../../../testing/test-server.js';
import { adminUsersLink } from './auth-admin.routes.js';

const USERS = '/auth/v1/admin/users';

describe('adminUsersLink', () => {
  it.each([
    [
      1,
      50,
      123,
      '</auth/v1/admin/users?page=2&per_page=50>; rel="next", </auth/v1/admin/users?page=3&per_page=50>; rel="last"',
    ],
    [3, 50, 123, '</auth/v1/admin/users?page=3&per_page=50>; rel="last"'],
    [1, 50, 0, '</auth/v1/admin/users?page=1&per_page=50>; rel="last"'],
  ])('page %i of %i per page with %i users', (page, perPage, total, link) => {
    expect(adminUsersLink(page, perPage, total)).toBe(link);
  });
});

describe.each(testDialects)('/auth/v1/admin/users on %s', (dialect) => {
  let server: TestServer;
  let alice: SignedInTestUser;
  beforeAll(async () => {
    server = await startAuthServer(dialect);
    alice = await signUpUser(server, users.alice);
  });
  afterAll(() => server.close());
  const service = () => keyHeaders(server.serviceKey);

  const scenarios: ApiScenario[] = [
    {
      name: 'the anon key',
      method: 'GET',
      url: USERS,
      headers: () => keyHeaders(server.anonKey),
      status: 403,
      expected: { code: 403, error_code: 'not_admin', msg: 'User not allowed' },
    },
    {
      name: 'a user token',
      method: 'GET',
      url: USERS,
      headers: () => alice.headers,
      status: 403,
      expected: { error_code: 'not_admin' },
    },
    {
      name: 'no bearer',
      method: 'GET',
      url: USERS,
      headers: () => ({ apikey: server.serviceKey }),
      status: 401,
      expected: { error_code: 'no_authorization' },
    },
    {
      name: 'no apikey',
      method: 'GET',
      url: USERS,
      headers: () => ({ authorization: `Bearer ${server.serviceKey}` }),
      status: 401,
      expected: { message: 'No API key found in request' },
    },
    {
      name: 'a create with the anon key',
      method: 'POST',
      url: USERS,
      headers: () => keyHeaders(server.anonKey),
      json: { email: 'x@example.com' },
      status: 403,
      expected: { error_code: 'not_admin' },
    },
    {
      name: 'a bad page number',
      method: 'GET',
      url: `${USERS}?page=zero&per_page=10`,
      headers: service,
      status: 400,
      expected: { error_code: 'validation_failed' },
    },
    {
      name: 'a create without email',
      method: 'POST',
      url: USERS,
      headers: service,
      json: { password: users.bob.password },
      status: 400,
      expected: { error_code: 'validation_failed' },
    },
    {
      name: 'a create with a taken email',
      method: 'POST',
      url: USERS,
      headers: service,
      json: { email: 'Alice@Example.com' },
      status: 422,
      expected: { error_code: 'email_exists', msg: 'A user with this email address has already been registered' },
    },
    {
      name: 'a create with a weak password',
      method: 'POST',
      url: USERS,
      headers: service,
      json: { email: 'weak@example.com', password: 'weak' },
      status: 422,
      expected: { error_code: 'weak_password', weak_password: { reasons: ['length', 'characters'] } },
    },
    {
      name: 'a create with a bad id',
      method: 'POST',
      url: USERS,
      headers: service,
      json: { id: 'nope', email: 'id@example.com' },
      status: 400,
      expected: { error_code: 'validation_failed' },
    },
    {
      name: 'a create with a bad ban_duration',
      method: 'POST',
      url: USERS,
      headers: service,
      json: { email: 'ban@example.com', ban_duration: 'forever' },
      status: 400,
      expected: { error_code: 'validation_failed' },
    },
    {
      name: 'a get of a non-UUID id',
      method: 'GET',
      url: `${USERS}/42`,
      headers: service,
      status: 404,
      expected: { error_code: 'validation_failed' },
    },
    {
      name: 'a get of an unknown id',
      method: 'GET',
      url: `${USERS}/${crypto.randomUUID()}`,
      headers: service,
      status: 404,
      expected: { code: 404, error_code: 'user_not_found', msg: 'User not found' },
    },
    {
      name: 'a delete of an unknown id',
      method: 'DELETE',
      url: `${USERS}/${crypto.randomUUID()}`,
      headers: service,
      json: { should_soft_delete: false },
      status: 404,
      expected: { error_code: 'user_not_found' },
    },
  ];
  it.each(scenarios.map((s) => [s.name, s] as const))('refuses %s', async (_name, scenario) => {
    await runScenario(server, scenario);
  });

  it('creates users: confirmed on request, with metadata, a chosen id and a password that signs in', async () => {
    const id = crypto.randomUUID();
    const created = await runScenario(server, {
      name: 'create',
      method: 'POST',
      url: USERS,
      headers: service,
      json: {
        id,
        email: users.bob.email,
        password: users.bob.password,
        email_confirm: true,
        user_metadata: { username: 'bob' },
        app_metadata: { plan: 'pro' },
      },
      status: 200,
      expected: {
        id,
        email: users.bob.email,
        user_metadata: { username: 'bob' },
        app_metadata: { plan: 'pro', provider: 'email' },
      },
    });
    expect(created.body.email_confirmed_at).toEqual(expect.any(String));
    const signIn = await server.request('POST', '/auth/v1/token?grant_type=password', {
      headers: keyHeaders(server.anonKey),
      json: { email: users.bob.email, password: users.bob.password },
    });
    expect(signIn.status).toBe(200);

    const unconfirmed = await server.request('POST', USERS, {
      headers: service(),
      json: { email: users.carol.email, password: users.carol.password },
    });
    expect(unconfirmed.body).not.toHaveProperty('email_confirmed_at');
    const refused = await server.request('POST', '/auth/v1/token?grant_type=password', {
      headers: keyHeaders(server.anonKey),
      json: { email: users.carol.email, password: users.carol.password },
    });
    expect(refused.body).toMatchObject({ code: 400, error_code: 'email_not_confirmed', msg: 'Email not confirmed' });
  });

  it('lists users newest first with X-Total-Count and Link', async () => {
    for (const user of [users.dave, users.erin]) {
      await server.request('POST', USERS, { headers: service(), json: { email: user.email, email_confirm: true } });
    }
    const page1 = await runScenario(server, {
      name: 'list',
      method: 'GET',
      url: `${USERS}?page=1&per_page=2`,
      headers: service,
      status: 200,
      expected: { aud: 'authenticated' },
      expectedHeaders: {
        'x-total-count': '5',
        link: /page=2&per_page=2>; rel="next", .*page=3&per_page=2>; rel="last"/,
      },
    });
    expect(page1.body.users.map((u: { email: string }) => u.email)).toEqual([users.erin.email, users.dave.email]);
    const page3 = await server.request('GET', `${USERS}?page=3&per_page=2`, { headers: service() });
    expect(page3.body.users.map((u: { email: string }) => u.email)).toEqual([users.alice.email]);
    expect(page3.headers.get('link')).toBe('</auth/v1/admin/users?page=3&per_page=2>; rel="last"');
    const defaults = await server.request('GET', `${USERS}?page=&per_page=`, { headers: service() });
    expect(defaults.body.users).toHaveLength(5);
  });

  it('updates users: email, metadata merge, confirmation, and a new password ends their sessions', async () => {
    const res = await server.request('PUT', `${USERS}/${alice.id}`, {
      headers: service(),
      json: {
        email: 'alice.new@example.com',
        user_metadata: { team: 'core' },
        app_metadata: { plan: 'pro' },
        password: 'Changed-Passw0rd!',
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      email: 'alice.new@example.com',
      user_metadata: { username: 'alice', team: 'core' },
      app_metadata: { plan: 'pro' },
    });
    expect((await server.request('GET', '/auth/v1/user', { headers: alice.headers })).body.error_code).toBe(
      'session_not_found',
    );
    const taken = await server.request('PUT', `${USERS}/${alice.id}`, {
      headers: service(),
      json: { email: users.bob.email },
    });
    expect(taken.body.error_code).toBe('email_exists');
    const confirm = await server.request('PUT', `${USERS}/${alice.id.toUpperCase()}`, {
      headers: service(),
      json: { email_confirm: true },
    });
    expect(confirm.status).toBe(200);
  });

  it('bans and unbans a user', async () => {
    const dave = (await server.request('GET', `${USERS}?per_page=50`, { headers: service() })).body.users.find(
      (u: { email: string }) => u.email === users.dave.email,
    );
    const banned = await server.request('PUT', `${USERS}/${dave.id}`, {
      headers: service(),
      json: { ban_duration: '1h30m', password: users.dave.password },
    });
    expect(banned.body.banned_until).toEqual(expect.any(String));
    const signIn = () =>
      server.request('POST', '/auth/v1/token?grant_type=password', {
        headers: keyHeaders(server.anonKey),
        json: { email: users.dave.email, password: users.dave.password },
      });
    expect((await signIn()).body).toMatchObject({ error_code: 'user_banned' });
    await server.request('PUT', `${USERS}/${dave.id}`, { headers: service(), json: { ban_duration: 'none' } });
    expect((await signIn()).status).toBe(200);
  });

  it('deletes a user (GET then DELETE, as supabase-js 2.119 does) with sessions and activity', async () => {
    const erin = (await server.request('GET', USERS, { headers: service() })).body.users[0];
    expect((await server.request('GET', `${USERS}/${erin.id}`, { headers: service() })).status).toBe(200);
    const res = await server.request('DELETE', `${USERS}/${erin.id}`, {
      headers: service(),
      json: { should_soft_delete: false },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({});
    expect((await server.request('GET', `${USERS}/${erin.id}`, { headers: service() })).status).toBe(404);
  });
});
