import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ApiScenario,
  loginWithCookie,
  runScenario,
  signTestToken,
  startAuthServer,
  users,
} from '../../../testing/auth.fixtures.js';
import { type TestServer, testDialects } from '../../../testing/test-server.js';
import { listActivity } from '../../activity/activity.service.js';

const REGISTER = '/api/auth/register';
const LOGIN = '/api/auth/login';
const fieldError = (field: string, message: string) => ({
  code: 'validation_failed',
  validationErrors: { [field]: [message] },
});
const { alice, bob } = users;

describe.each(testDialects)('console /api/auth on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startAuthServer(dialect);
  });
  afterAll(() => server.close());
  const register = (json: unknown) => ({ method: 'POST', url: REGISTER, json });

  it('registers: 201 with the application user, a session and the session cookie', async () => {
    const res = await runScenario(server, {
      name: 'register',
      ...register({ username: alice.username, email: 'Alice@Example.com', password: alice.password }),
      status: 201,
      expected: {
        user: {
          username: 'alice',
          email: 'alice@example.com',
          isAdmin: true,
          stripeCustomerId: null,
          subscriptionStatus: null,
          cancelAtPeriodEnd: null,
          createdAt: expect.any(String),
        },
        session: {
          token_type: 'bearer',
          access_token: expect.any(String),
          refresh_token: expect.any(String),
          user: { email: 'alice@example.com' },
        },
      },
    });
    expect(res.headers.get('set-cookie')).toMatch(/^basalt_session=[\w-]+;.*HttpOnly.*SameSite=Lax/i);
    const feed = await listActivity(server.app.basalt.db.kysely, res.body.user.id, { page: 1, limit: 10 });
    expect(feed.data).toEqual([
      expect.objectContaining({ action: 'REGISTER', resource: 'users', details: { username: 'alice' } }),
    ]);
  });

  const valid = { username: 'carol', email: 'carol@example.com', password: users.carol.password };
  const scenarios: ApiScenario[] = [
    {
      name: 'malformed JSON',
      method: 'POST',
      url: REGISTER,
      headers: { 'content-type': 'application/json' },
      body: '{"a',
      status: 400,
      expected: { code: 'bad_json', message: 'The request body is not valid JSON' },
    },
    {
      name: 'an empty body',
      ...register({}),
      status: 400,
      expected: {
        code: 'validation_failed',
        validationErrors: { username: expect.any(Array), email: expect.any(Array), password: expect.any(Array) },
      },
    },
    {
      name: 'a short username',
      ...register({ ...valid, username: 'ab' }),
      status: 400,
      expected: fieldError('username', 'Username must be at least 3 characters'),
    },
    {
      name: 'a long username',
      ...register({ ...valid, username: 'u'.repeat(51) }),
      status: 400,
      expected: fieldError('username', 'Username cannot exceed 50 characters'),
    },
    {
      name: 'a username with symbols',
      ...register({ ...valid, username: 'caro!' }),
      status: 400,
      expected: fieldError('username', 'Username can only contain letters, numbers, underscores and hyphens'),
    },
    {
      name: 'a malformed email',
      ...register({ ...valid, email: 'carol' }),
      status: 400,
      expected: fieldError('email', 'Please enter a valid email'),
    },
    {
      name: 'a long email',
      ...register({ ...valid, email: `${'c'.repeat(95)}@example.com` }),
      status: 400,
      expected: fieldError('email', 'Email cannot exceed 100 characters'),
    },
    {
      name: 'a short password',
      ...register({ ...valid, password: 'Ab1!' }),
      status: 400,
      expected: fieldError('password', 'Password must be at least 8 characters'),
    },
    {
      name: 'a long password',
      ...register({ ...valid, password: `Ab1!${'x'.repeat(97)}` }),
      status: 400,
      expected: fieldError('password', 'Password is too long'),
    },
    {
      name: 'a password without uppercase',
      ...register({ ...valid, password: 'abcdefg1!' }),
      status: 400,
      expected: fieldError('password', 'Password must contain at least one uppercase letter'),
    },
    {
      name: 'a password without lowercase',
      ...register({ ...valid, password: 'ABCDEFG1!' }),
      status: 400,
      expected: fieldError('password', 'Password must contain at least one lowercase letter'),
    },
    {
      name: 'a password without a number',
      ...register({ ...valid, password: 'Abcdefgh!' }),
      status: 400,
      expected: fieldError('password', 'Password must contain at least one number'),
    },
    {
      name: 'a password without a special character',
      ...register({ ...valid, password: 'Abcdefgh1' }),
      status: 400,
      expected: fieldError('password', 'Password must contain at least one special character'),
    },
    {
      name: 'a taken username in other case',
      ...register({ ...valid, username: 'ALICE' }),
      status: 409,
      expected: {
        code: 'username_exists',
        message: 'This username is already taken',
        validationErrors: { username: ['This username is already taken'] },
      },
    },
    {
      name: 'a taken email in other case',
      ...register({ ...valid, email: 'ALICE@example.com' }),
      status: 409,
      expected: {
        code: 'email_exists',
        message: 'An account with this email already exists',
        validationErrors: { email: expect.any(Array) },
      },
    },
    {
      name: 'a login with a wrong password',
      method: 'POST',
      url: LOGIN,
      json: { email: alice.email, password: 'Wrong-Passw0rd!' },
      status: 401,
      expected: { code: 'invalid_credentials', message: 'Invalid email or password' },
    },
    {
      name: 'a login with an unknown email',
      method: 'POST',
      url: LOGIN,
      json: { email: 'nobody@example.com', password: alice.password },
      status: 401,
      expected: { message: 'Invalid email or password' },
    },
    {
      name: 'a login with a malformed email',
      method: 'POST',
      url: LOGIN,
      json: { email: 'nobody', password: 'x' },
      status: 400,
      expected: fieldError('email', 'Please enter a valid email'),
    },
    {
      name: 'a login without password',
      method: 'POST',
      url: LOGIN,
      json: { email: alice.email },
      status: 400,
      expected: { code: 'validation_failed', validationErrors: { password: expect.any(Array) } },
    },
    {
      name: 'me without credentials',
      method: 'GET',
      url: '/api/auth/me',
      status: 401,
      expected: { code: 'unauthorized' },
    },
    {
      name: 'me with a garbage bearer',
      method: 'GET',
      url: '/api/auth/me',
      headers: { authorization: 'Bearer abc' },
      status: 401,
      expected: { code: 'invalid_token' },
    },
  ];
  it.each(scenarios.map((s) => [s.name, s] as const))('refuses %s', async (_name, scenario) => {
    await runScenario(server, scenario);
  });

  it('refuses an expired bearer on /me', async () => {
    const token = await signTestToken(
      server,
      { role: 'authenticated', aud: 'authenticated', session_id: crypto.randomUUID() },
      { expiresIn: -10, subject: crypto.randomUUID() },
    );
    const res = await server.request('GET', '/api/auth/me', { headers: { authorization: `Bearer ${token}` } });
    expect(res.body).toMatchObject({ code: 'token_expired' });
    expect(res.status).toBe(401);
  });

  it('logs in with a cookie; /me reads it; LOGIN is recorded; logout needs the CSRF token and ends the session', async () => {
    await server.request('POST', REGISTER, {
      json: { username: bob.username, email: bob.email, password: bob.password },
    });
    const session = await loginWithCookie(server, bob);
    const me = await server.request('GET', '/api/auth/me', { headers: { cookie: session.cookie } });
    expect(me.status).toBe(200);
    expect(me.body).toEqual({ user: expect.objectContaining({ username: 'bob', email: bob.email, isAdmin: false }) });
    expect(me.headers.get('cache-control')).toBe('no-store');
    const feed = await listActivity(server.app.basalt.db.kysely, me.body.user.id, { page: 1, limit: 10 });
    expect(feed.data.map((e) => e.action)).toEqual(['LOGIN', 'REGISTER']);

    const missing = await server.request('POST', '/api/auth/logout', { headers: { cookie: session.cookie } });
    expect(missing.status).toBe(403);
    expect(missing.body.code).toBe('csrf_invalid');
    const wrong = await server.request('POST', '/api/auth/logout', {
      headers: { cookie: session.cookie, 'x-csrf-token': 'x'.repeat(43) },
    });
    expect(wrong.status).toBe(403);
    const ok = await server.request('POST', '/api/auth/logout', { headers: session.headers });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ success: true });
    expect(ok.headers.get('set-cookie')).toMatch(/basalt_session=;/);
    expect((await server.request('GET', '/api/auth/me', { headers: { cookie: session.cookie } })).status).toBe(401);
    const after = await listActivity(server.app.basalt.db.kysely, me.body.user.id, { page: 1, limit: 10 });
    expect(after.data[0]).toMatchObject({ action: 'LOGOUT', resource: 'auth' });
  });

  it('logs out a bearer session without a CSRF token; its token then fails /me', async () => {
    const login = await server.request('POST', LOGIN, { json: { email: alice.email, password: alice.password } });
    const headers = { authorization: `Bearer ${login.body.session.access_token}` };
    expect((await server.request('GET', '/api/auth/me', { headers })).status).toBe(200);
    expect((await server.request('POST', '/api/auth/logout', { headers })).body).toEqual({ success: true });
    const me = await server.request('GET', '/api/auth/me', { headers });
    expect(me.status).toBe(401);
    expect(me.body.code).toBe('session_not_found');
    expect((await server.request('POST', '/api/auth/logout', { headers })).status).toBe(200);
  });
});
