import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ApiScenario,
  keyHeaders,
  runScenario,
  signUpUser,
  startAuthServer,
  users,
} from '../../../testing/auth.fixtures.js';
import { type TestServer, testDialects } from '../../../testing/test-server.js';
import { listActivity } from '../../activity/activity.service.js';

const SIGNUP = '/auth/v1/signup';
const weak = (reasons: string[], msg: string) => ({
  code: 422,
  error_code: 'weak_password',
  msg,
  weak_password: { reasons },
});
const invalid = (msg: string) => ({ code: 400, error_code: 'validation_failed', msg });

describe.each(testDialects)('POST /auth/v1/signup on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startAuthServer(dialect);
  });
  afterAll(() => server.close());
  const anon = () => keyHeaders(server.anonKey);
  const signup = (json: unknown) => ({ method: 'POST', url: SIGNUP, headers: anon, json });
  const password = users.alice.password;

  it('registers with autoconfirm on: a Session whose user is confirmed and lower-cased', async () => {
    const res = await runScenario(server, {
      name: 'first sign-up',
      ...signup({
        email: 'Alice@Example.com',
        password,
        data: { username: 'alice' },
        gotrue_meta_security: {},
        code_challenge: null,
        code_challenge_method: null,
      }),
      status: 200,
      expected: {
        token_type: 'bearer',
        expires_in: 3600,
        user: {
          aud: 'authenticated',
          role: 'authenticated',
          email: 'alice@example.com',
          phone: '',
          app_metadata: { provider: 'email', providers: ['email'] },
          user_metadata: {
            username: 'alice',
            email: 'alice@example.com',
            email_verified: true,
            sub: expect.any(String),
          },
          is_anonymous: false,
        },
      },
    });
    const { user } = res.body;
    expect(user.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(user.email_confirmed_at).toEqual(user.confirmed_at);
    expect(Object.values(user)).not.toContain(null);
    expect(user).not.toHaveProperty('confirmation_sent_at');
    expect(user.identities).toEqual([
      expect.objectContaining({ id: user.id, user_id: user.id, provider: 'email', email: 'alice@example.com' }),
    ]);
    expect(res.body.refresh_token.length).toBeGreaterThanOrEqual(12);
    expect(res.body.expires_at).toBe(decodeJwt(res.body.access_token).exp);

    const claims = decodeJwt(res.body.access_token);
    expect(claims).toMatchObject({
      iss: `${server.app.basalt.config.siteUrl}/auth/v1`,
      sub: user.id,
      aud: 'authenticated',
      role: 'authenticated',
      email: 'alice@example.com',
      aal: 'aal1',
      amr: [{ method: 'password', timestamp: expect.any(Number) }],
      session_id: expect.any(String),
      is_anonymous: false,
    });
    const feed = await listActivity(server.app.basalt.db.kysely, user.id, { page: 1, limit: 10 });
    expect(feed.data).toEqual([
      expect.objectContaining({ action: 'REGISTER', resource: 'users', details: { username: 'alice' } }),
    ]);
  });

  it('makes only the first account an administrator', async () => {
    const bob = await server.request('POST', SIGNUP, { headers: anon(), json: { email: users.bob.email, password } });
    expect(bob.status).toBe(200);
    const me = await server.request('GET', '/api/auth/me', {
      headers: { authorization: `Bearer ${bob.body.access_token}` },
    });
    expect(me.body.user).toMatchObject({ username: 'bob', email: users.bob.email, isAdmin: false });
    expect(bob.body.user.user_metadata).not.toHaveProperty('username');
  });

  const scenarios: ApiScenario[] = [
    {
      name: 'no apikey',
      method: 'POST',
      url: SIGNUP,
      json: { email: 'x@example.com', password },
      status: 401,
      expected: { message: 'No API key found in request' },
    },
    {
      name: 'malformed JSON',
      method: 'POST',
      url: SIGNUP,
      headers: () => ({ ...anon(), 'content-type': 'application/json' }),
      body: '{"email":',
      status: 400,
      expected: { code: 400, error_code: 'bad_json' },
    },
    {
      name: 'a JSON array body',
      ...signup([1, 2]),
      status: 400,
      expected: invalid('Request body must be a JSON object'),
    },
    {
      name: 'neither email nor phone (anonymous sign-in)',
      ...signup({ data: {} }),
      status: 422,
      expected: { error_code: 'anonymous_provider_disabled' },
    },
    {
      name: 'phone only',
      ...signup({ phone: '+15550100', password }),
      // GoTrue answers a disabled phone provider with 400.
      status: 400,
      expected: { error_code: 'phone_provider_disabled' },
    },
    {
      name: 'email of the wrong type',
      ...signup({ email: 42, password }),
      status: 400,
      expected: invalid('Unable to validate email address: invalid format'),
    },
    {
      name: 'malformed email',
      ...signup({ email: 'not-an-email', password }),
      status: 400,
      expected: invalid('Unable to validate email address: invalid format'),
    },
    {
      name: 'email over 100 characters',
      ...signup({ email: `${'a'.repeat(95)}@example.com`, password }),
      status: 400,
      expected: invalid('Email cannot exceed 100 characters'),
    },
    {
      name: 'no password',
      ...signup({ email: 'x@example.com' }),
      status: 400,
      expected: invalid('Signup requires a valid password'),
    },
    {
      name: 'password of the wrong type',
      ...signup({ email: 'x@example.com', password: 12345678 }),
      status: 400,
      expected: invalid('Signup requires a valid password'),
    },
    {
      name: 'password too short',
      ...signup({ email: 'x@example.com', password: 'Sh0rt!' }),
      status: 422,
      expected: weak(['length'], 'Password must be at least 8 characters.'),
    },
    {
      name: 'password too long',
      ...signup({ email: 'x@example.com', password: `Aa1!${'x'.repeat(97)}` }),
      status: 422,
      expected: weak(['length'], 'Password is too long.'),
    },
    {
      name: 'password without uppercase',
      ...signup({ email: 'x@example.com', password: 'lower-case1' }),
      status: 422,
      expected: weak(['characters'], 'Password must contain at least one uppercase letter.'),
    },
    {
      name: 'password without lowercase',
      ...signup({ email: 'x@example.com', password: 'UPPER-CASE1' }),
      status: 422,
      expected: weak(['characters'], 'Password must contain at least one lowercase letter.'),
    },
    {
      name: 'password without a number',
      ...signup({ email: 'x@example.com', password: 'No-Digits-Here' }),
      status: 422,
      expected: weak(['characters'], 'Password must contain at least one number.'),
    },
    {
      name: 'password without a special character',
      ...signup({ email: 'x@example.com', password: 'NoSpecial123' }),
      status: 422,
      expected: weak(['characters'], 'Password must contain at least one special character.'),
    },
    {
      name: 'password breaking several rules',
      ...signup({ email: 'x@example.com', password: 'abc' }),
      status: 422,
      expected: weak(
        ['length', 'characters'],
        'Password must be at least 8 characters. Password must contain at least one uppercase letter. Password must contain at least one number. Password must contain at least one special character.',
      ),
    },
    {
      name: 'username too short',
      ...signup({ email: 'x@example.com', password, data: { username: 'ab' } }),
      status: 400,
      expected: invalid('Username must be at least 3 characters'),
    },
    {
      name: 'username too long',
      ...signup({ email: 'x@example.com', password, data: { username: 'u'.repeat(51) } }),
      status: 400,
      expected: invalid('Username cannot exceed 50 characters'),
    },
    {
      name: 'username with spaces',
      ...signup({ email: 'x@example.com', password, data: { username: 'bad name!' } }),
      status: 400,
      expected: invalid('Username can only contain letters, numbers, underscores and hyphens'),
    },
    {
      name: 'username of the wrong type',
      ...signup({ email: 'x@example.com', password, data: { username: 42 } }),
      status: 400,
      expected: invalid('Username must be a string'),
    },
    {
      name: 'data that is not an object',
      ...signup({ email: 'x@example.com', password, data: 'ada' }),
      status: 400,
      expected: invalid('data must be a JSON object'),
    },
    {
      name: 'a registered email in other case',
      ...signup({ email: 'ALICE@example.com', password }),
      status: 422,
      expected: { code: 422, error_code: 'user_already_exists', msg: 'User already registered' },
    },
    {
      name: 'a taken username in other case',
      ...signup({ email: 'alice2@example.com', password, data: { username: 'ALICE' } }),
      status: 422,
      expected: { error_code: 'username_exists', msg: 'Username is already taken' },
    },
  ];
  it.each(scenarios.map((s) => [s.name, s] as const))('refuses %s', async (_name, scenario) => {
    await runScenario(server, scenario);
  });

  it('left no account behind for the refused sign-ups', async () => {
    const res = await server.request('GET', '/auth/v1/admin/users', { headers: keyHeaders(server.serviceKey) });
    expect(res.body.users.map((u: { email: string }) => u.email).sort()).toEqual([users.alice.email, users.bob.email]);
  });
});

describe.each(testDialects)('the first account on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startAuthServer(dialect);
  });
  afterAll(() => server.close());

  it('is the only administrator, even when several sign up at once', async () => {
    const all = Object.values(users);
    const sessions = await Promise.all(all.map((user) => signUpUser(server, user)));
    const admins = await Promise.all(
      sessions.map(
        async (s) => (await server.request('GET', '/api/auth/me', { headers: s.headers })).body.user.isAdmin,
      ),
    );
    expect(admins.filter(Boolean)).toHaveLength(1);
  });
});
