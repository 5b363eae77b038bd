import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ApiScenario,
  keyHeaders,
  runScenario,
  type SignedInTestUser,
  signInUser,
  signTestToken,
  signUpUser,
  startAuthServer,
  tamper,
  userHeaders,
  users,
} from '../../../testing/auth.fixtures.js';
import { type TestServer, testDialects } from '../../../testing/test-server.js';

describe.each(testDialects)('/auth/v1/user and /logout on %s', (dialect) => {
  let server: TestServer;
  let alice: SignedInTestUser;
  let bob: SignedInTestUser;
  let expired: string;
  let noSession: string;
  let noExpiry: string;
  let otherIssuer: string;
  beforeAll(async () => {
    server = await startAuthServer(dialect);
    [alice, bob] = await Promise.all([signUpUser(server, users.alice), signUpUser(server, users.bob)]);
    const claims = decodeJwt(alice.accessToken);
    expired = await signTestToken(
      server,
      { ...claims, exp: undefined, iat: undefined },
      { expiresIn: -60, subject: alice.id },
    );
    noSession = await signTestToken(
      server,
      { ...claims, exp: undefined, iat: undefined, session_id: crypto.randomUUID() },
      { subject: alice.id },
    );
    // Signed with the instance's own key, yet not tokens it issues.
    noExpiry = await signTestToken(server, { ...claims, exp: undefined }, { expiresIn: null });
    otherIssuer = await signTestToken(server, { ...claims, exp: undefined, iss: 'https://elsewhere.example/auth/v1' });
  });
  afterAll(() => server.close());
  const as = (token: string) => () => userHeaders(server, token);

  const tokenScenarios: ApiScenario[] = [
    {
      name: 'no Authorization header',
      method: 'GET',
      url: '/auth/v1/user',
      headers: () => ({ apikey: server.anonKey }),
      status: 401,
      expected: { code: 401, error_code: 'no_authorization', msg: 'This endpoint requires a valid Bearer token' },
    },
    {
      name: 'the anon key as bearer',
      method: 'GET',
      url: '/auth/v1/user',
      headers: () => keyHeaders(server.anonKey),
      status: 403,
      expected: { error_code: 'bad_jwt', msg: 'invalid claim: missing sub claim' },
    },
    {
      name: 'the service key as bearer',
      method: 'GET',
      url: '/auth/v1/user',
      headers: () => keyHeaders(server.serviceKey),
      status: 403,
      expected: { error_code: 'bad_jwt' },
    },
    {
      name: 'an expired token',
      method: 'GET',
      url: '/auth/v1/user',
      headers: () => userHeaders(server, expired),
      status: 403,
      expected: { error_code: 'bad_jwt', msg: expect.stringContaining('token is expired') },
    },
    {
      name: 'a token of the instance’s key without exp',
      method: 'GET',
      url: '/auth/v1/user',
      headers: () => userHeaders(server, noExpiry),
      status: 403,
      expected: { error_code: 'bad_jwt', msg: expect.stringContaining('exp') },
    },
    {
      name: 'a token of the instance’s key from another issuer',
      method: 'GET',
      url: '/auth/v1/user',
      headers: () => userHeaders(server, otherIssuer),
      status: 403,
      expected: { error_code: 'bad_jwt', msg: expect.stringContaining('iss') },
    },
    {
      name: 'a tampered token',
      method: 'GET',
      url: '/auth/v1/user',
      headers: () => userHeaders(server, tamper(alice.accessToken)),
      status: 403,
      expected: { error_code: 'bad_jwt' },
    },
    {
      name: 'a token that is not a JWT',
      method: 'GET',
      url: '/auth/v1/user',
      headers: as('abc.def'),
      status: 403,
      expected: { error_code: 'bad_jwt' },
    },
    {
      name: 'a token whose session does not exist',
      method: 'GET',
      url: '/auth/v1/user',
      headers: () => userHeaders(server, noSession),
      status: 403,
      expected: {
        code: 403,
        error_code: 'session_not_found',
        msg: 'Session from session_id claim in JWT does not exist',
      },
    },
    {
      name: 'an expired token on logout',
      method: 'POST',
      url: '/auth/v1/logout',
      headers: () => userHeaders(server, expired),
      status: 403,
      expected: { error_code: 'bad_jwt' },
    },
    {
      name: 'a bad logout scope',
      method: 'POST',
      url: '/auth/v1/logout?scope=everyone',
      headers: () => userHeaders(server, alice.accessToken),
      status: 400,
      expected: { error_code: 'validation_failed' },
    },
    {
      name: 'app_metadata from a user',
      method: 'PUT',
      url: '/auth/v1/user',
      headers: () => userHeaders(server, alice.accessToken),
      json: { app_metadata: { role: 'admin' } },
      status: 403,
      expected: { error_code: 'not_admin' },
    },
    {
      name: 'a weak new password',
      method: 'PUT',
      url: '/auth/v1/user',
      headers: () => userHeaders(server, alice.accessToken),
      json: { password: 'weakpass' },
      status: 422,
      expected: { error_code: 'weak_password', weak_password: { reasons: ['characters'] } },
    },
    {
      name: 'the same password',
      method: 'PUT',
      url: '/auth/v1/user',
      headers: () => userHeaders(server, alice.accessToken),
      json: { password: users.alice.password },
      status: 422,
      expected: { error_code: 'same_password', msg: 'New password should be different from the old password.' },
    },
    {
      name: 'a taken email',
      method: 'PUT',
      url: '/auth/v1/user',
      headers: () => userHeaders(server, alice.accessToken),
      json: { email: 'BOB@example.com' },
      status: 422,
      expected: { error_code: 'email_exists' },
    },
    {
      name: 'a taken username',
      method: 'PUT',
      url: '/auth/v1/user',
      headers: () => userHeaders(server, alice.accessToken),
      json: { data: { username: 'Bob' } },
      status: 422,
      expected: { error_code: 'username_exists' },
    },
    {
      name: 'an invalid username',
      method: 'PUT',
      url: '/auth/v1/user',
      headers: () => userHeaders(server, alice.accessToken),
      json: { data: { username: 'a b' } },
      status: 400,
      expected: { error_code: 'validation_failed' },
    },
    {
      name: 'data that is not an object',
      method: 'PUT',
      url: '/auth/v1/user',
      headers: () => userHeaders(server, alice.accessToken),
      json: { data: [1] },
      status: 400,
      expected: { error_code: 'validation_failed' },
    },
    {
      name: 'malformed JSON',
      method: 'PUT',
      url: '/auth/v1/user',
      headers: () => ({ ...userHeaders(server, alice.accessToken), 'content-type': 'application/json' }),
      body: '[',
      status: 400,
      expected: { error_code: 'bad_json' },
    },
  ];
  it.each(tokenScenarios.map((s) => [s.name, s] as const))('refuses %s', async (_name, scenario) => {
    await runScenario(server, scenario);
  });

  it('GET /user returns the current User from the database', async () => {
    await runScenario(server, {
      name: 'get user',
      method: 'GET',
      url: '/auth/v1/user',
      headers: as(alice.accessToken),
      status: 200,
      expected: {
        id: alice.id,
        email: users.alice.email,
        user_metadata: { username: 'alice' },
        identities: [{ provider: 'email' }],
      },
    });
  });

  it('PUT /user merges data (null removes a key) and changes the email at once with autoconfirm', async () => {
    const put = (json: unknown) =>
      server.request('PUT', '/auth/v1/user', { headers: userHeaders(server, bob.accessToken), json });
    expect(
      (await put({ data: { theme: 'dark', plan: 'free' }, code_challenge: null })).body.user_metadata,
    ).toMatchObject({
      username: 'bob',
      theme: 'dark',
      plan: 'free',
    });
    const updated = await put({ data: { plan: null, username: 'Bobby' }, email: 'Bobby@Example.com' });
    expect(updated.status).toBe(200);
    expect(updated.body.email).toBe('bobby@example.com');
    expect(updated.body.user_metadata).toMatchObject({ username: 'Bobby', theme: 'dark' });
    expect(updated.body.user_metadata).not.toHaveProperty('plan');
    const me = await server.request('GET', '/api/auth/me', { headers: { authorization: `Bearer ${bob.accessToken}` } });
    expect(me.body.user).toMatchObject({ username: 'Bobby', email: 'bobby@example.com' });
  });

  it('PUT /user with a password keeps the caller signed in and ends the other sessions', async () => {
    const carol = await signUpUser(server, users.carol);
    const otherDevice = await signInUser(server, users.carol);
    const res = await server.request('PUT', '/auth/v1/user', {
      headers: carol.headers,
      json: { password: 'New-Passw0rd!' },
    });
    expect(res.status).toBe(200);
    expect((await server.request('GET', '/auth/v1/user', { headers: carol.headers })).status).toBe(200);
    expect((await server.request('GET', '/auth/v1/user', { headers: otherDevice.headers })).body.error_code).toBe(
      'session_not_found',
    );
    const signIn = (password: string) =>
      server.request('POST', '/auth/v1/token?grant_type=password', {
        headers: keyHeaders(server.anonKey),
        json: { email: users.carol.email, password },
      });
    expect((await signIn(users.carol.password)).status).toBe(400);
    expect((await signIn('New-Passw0rd!')).status).toBe(200);
  });

  it.each([
    ['local', [false, true, true]],
    ['others', [true, false, false]],
    ['global', [false, false, false]],
  ] as const)('POST /logout?scope=%s ends the right sessions', async (scope, alive) => {
    const user = { ...users.dave, email: `dave-${scope}@example.com`, username: `dave_${scope}` };
    const first = await signUpUser(server, user);
    const [second, third] = [await signInUser(server, user), await signInUser(server, user)];
    const res = await server.request('POST', `/auth/v1/logout?scope=${scope}`, {
      headers: { ...first.headers, 'content-type': 'application/json;charset=UTF-8' },
    });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    const statuses = await Promise.all(
      [first, second, third].map(
        async (s) => (await server.request('GET', '/auth/v1/user', { headers: s.headers })).status === 200,
      ),
    );
    expect(statuses).toEqual(alive);
    const refreshed = await server.request('POST', '/auth/v1/token?grant_type=refresh_token', {
      headers: keyHeaders(server.anonKey),
      json: { refresh_token: first.refreshToken },
    });
    expect(refreshed.status).toBe(alive[0] ? 200 : 400);
  });

  it('refuses the token of a deleted user', async () => {
    const erin = await signUpUser(server, users.erin);
    const deleted = await server.request('DELETE', `/auth/v1/admin/users/${erin.id}`, {
      headers: keyHeaders(server.serviceKey),
    });
    expect(deleted.status).toBe(200);
    // The session went with the user, so the token is refused before the user lookup.
    expect((await server.request('GET', '/auth/v1/user', { headers: erin.headers })).status).toBe(403);
  });
});
