import { decodeJwt } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
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
import { listActivity } from '../../activity/activity.service.js';

const PASSWORD_GRANT = '/auth/v1/token?grant_type=password';
const REFRESH_GRANT = '/auth/v1/token?grant_type=refresh_token';

describe.each(testDialects)('POST /auth/v1/token on %s', (dialect) => {
  let server: TestServer;
  let alice: SignedInTestUser;
  beforeAll(async () => {
    server = await startAuthServer(dialect);
    alice = await signUpUser(server, users.alice);
  });
  afterAll(() => server.close());
  afterEach(() => {
    vi.useRealTimers();
  });
  const anon = () => keyHeaders(server.anonKey);
  const post = (url: string, json: unknown) => ({ method: 'POST', url, headers: anon, json });
  const refresh = (token: string) =>
    server.request('POST', REFRESH_GRANT, { headers: anon(), json: { refresh_token: token } });

  describe('grant_type=password', () => {
    it('signs in: a Session with last_sign_in_at, amr password, and a LOGIN entry', async () => {
      const res = await runScenario(server, {
        name: 'sign-in',
        ...post(PASSWORD_GRANT, {
          email: 'ALICE@example.com',
          password: users.alice.password,
          gotrue_meta_security: {},
        }),
        status: 200,
        expected: { token_type: 'bearer', expires_in: 3600, user: { id: alice.id, email: users.alice.email } },
      });
      expect(res.body.user.last_sign_in_at).toEqual(expect.any(String));
      expect(res.body).not.toHaveProperty('weak_password');
      const claims = decodeJwt(res.body.access_token);
      expect(claims.amr).toEqual([{ method: 'password', timestamp: expect.any(Number) }]);
      expect(claims.session_id).not.toBe(decodeJwt(alice.accessToken).session_id);
      const feed = await listActivity(server.app.basalt.db.kysely, alice.id, { page: 1, limit: 10 });
      expect(feed.data[0]).toMatchObject({ action: 'LOGIN', resource: 'auth', details: { username: 'alice' } });
    });

    const invalidCredentials = { code: 400, error_code: 'invalid_credentials', msg: 'Invalid login credentials' };
    const scenarios: ApiScenario[] = [
      {
        name: 'a wrong password',
        ...post(PASSWORD_GRANT, { email: users.alice.email, password: 'Wrong-Passw0rd!' }),
        status: 400,
        expected: invalidCredentials,
      },
      {
        name: 'an unknown email (same answer)',
        ...post(PASSWORD_GRANT, { email: 'nobody@example.com', password: users.alice.password }),
        status: 400,
        expected: invalidCredentials,
      },
      {
        name: 'no email or phone',
        ...post(PASSWORD_GRANT, { password: 'x' }),
        status: 400,
        expected: { error_code: 'validation_failed', msg: 'missing email or phone' },
      },
      {
        name: 'a phone sign-in',
        ...post(PASSWORD_GRANT, { phone: '+15550100', password: 'x' }),
        status: 400,
        expected: { error_code: 'phone_provider_disabled' },
      },
      {
        name: 'no password',
        ...post(PASSWORD_GRANT, { email: users.alice.email }),
        status: 400,
        expected: { error_code: 'validation_failed' },
      },
      {
        name: 'a password of the wrong type',
        ...post(PASSWORD_GRANT, { email: users.alice.email, password: ['x'] }),
        status: 400,
        expected: { error_code: 'validation_failed' },
      },
      {
        name: 'an unsupported grant type',
        ...post('/auth/v1/token?grant_type=client_credentials', {}),
        status: 400,
        expected: { error_code: 'invalid_credentials', msg: 'unsupported_grant_type' },
      },
      {
        name: 'no grant type',
        ...post('/auth/v1/token', {}),
        status: 400,
        expected: { error_code: 'invalid_credentials', msg: 'unsupported_grant_type' },
      },
      {
        name: 'malformed JSON',
        method: 'POST',
        url: PASSWORD_GRANT,
        headers: () => ({ ...anon(), 'content-type': 'application/json' }),
        body: '{nope',
        status: 400,
        expected: { error_code: 'bad_json' },
      },
      {
        name: 'a refresh without refresh_token',
        ...post(REFRESH_GRANT, {}),
        status: 400,
        expected: { error_code: 'validation_failed', msg: 'refresh_token required' },
      },
      {
        name: 'an unknown refresh token',
        ...post(REFRESH_GRANT, { refresh_token: 'a'.repeat(32) }),
        status: 400,
        expected: {
          code: 400,
          error_code: 'refresh_token_not_found',
          msg: 'Invalid Refresh Token: Refresh Token Not Found',
        },
      },
      {
        name: 'a malformed refresh token',
        ...post(REFRESH_GRANT, { refresh_token: 'not a token!' }),
        status: 400,
        expected: { error_code: 'refresh_token_not_found' },
      },
      {
        name: 'a refresh token of the wrong type',
        ...post(REFRESH_GRANT, { refresh_token: 42 }),
        status: 400,
        expected: { error_code: 'validation_failed' },
      },
    ];
    it.each(scenarios.map((s) => [s.name, s] as const))('refuses %s', async (_name, scenario) => {
      await runScenario(server, scenario);
    });
  });

  describe('grant_type=refresh_token', () => {
    it('rotates: a new refresh token, same session, amr kept', async () => {
      const session = await signUpUser(server, users.bob);
      const res = await refresh(session.refreshToken);
      expect(res.status).toBe(200);
      expect(res.body.refresh_token).not.toBe(session.refreshToken);
      expect(res.body.user.id).toBe(session.id);
      const before = decodeJwt(session.accessToken);
      const after = decodeJwt(res.body.access_token);
      expect(after.session_id).toBe(before.session_id);
      expect(after.amr).toEqual(before.amr);
      const next = await refresh(res.body.refresh_token);
      expect(next.status).toBe(200);
    });

    it('returns the same successor when a rotated token is reused within 10 s (two tabs)', async () => {
      const session = (await refresh(alice.refreshToken)).body;
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(Date.now() + 1000);
      const first = await refresh(session.refresh_token);
      vi.setSystemTime(Date.now() + 8000);
      const again = await refresh(session.refresh_token);
      expect([first.status, again.status]).toEqual([200, 200]);
      expect(again.body.refresh_token).toBe(first.body.refresh_token);
      // The successor itself keeps working.
      const onward = await refresh(first.body.refresh_token);
      expect(onward.status).toBe(200);
    });

    it('revokes the whole session when a rotated token is reused after 10 s', async () => {
      const session = await signUpUser(server, users.carol);
      const first = await refresh(session.refreshToken);
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(Date.now() + 11_000);
      const replay = await refresh(session.refreshToken);
      expect(replay.status).toBe(400);
      expect(replay.body).toMatchObject({
        error_code: 'refresh_token_already_used',
        msg: 'Invalid Refresh Token: Already Used',
      });
      const successor = await refresh(first.body.refresh_token);
      expect(successor.body.error_code).toBe('refresh_token_not_found');
      const user = await server.request('GET', '/auth/v1/user', {
        headers: { apikey: server.anonKey, authorization: `Bearer ${first.body.access_token}` },
      });
      expect(user.body.error_code).toBe('session_not_found');
    });

    it('answers concurrent refreshes with one successor', async () => {
      const session = await signUpUser(server, users.dave);
      const answers = await Promise.all([1, 2, 3].map(() => refresh(session.refreshToken)));
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
      expect(new Set(answers.map((a) => a.body.refresh_token)).size).toBe(1);
    });
  });
});
