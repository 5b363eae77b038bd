import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CookieSession, loginWithCookie, signUpUser, startAuthServer, users } from '../testing/auth.fixtures.js';
import { type TestResponse, type TestServer, testDialects } from '../testing/test-server.js';

// The CSRF token of a cookie session is derived from that session's cookie: a token and a cookie that someone
// planted in the victim's browser (a sibling subdomain can set cookies for the whole site) do not pass.

const KEYS = '/api/keys';
const cookiePairs = (res: TestResponse) => res.headers.getSetCookie().map((c) => c.split(';')[0] ?? '');
const sessionCookieOf = (session: CookieSession) =>
  session.cookie.split('; ').find((pair) => pair.startsWith('basalt_session=')) ?? '';

describe.each(testDialects)('CSRF tokens bound to the session on %s', (dialect) => {
  let server: TestServer;
  let victim: CookieSession;
  let attacker: CookieSession;
  beforeAll(async () => {
    server = await startAuthServer(dialect);
    await signUpUser(server, users.alice);
    await signUpUser(server, users.mallory);
    victim = await loginWithCookie(server, users.alice);
    attacker = await loginWithCookie(server, users.mallory);
  });
  afterAll(() => server.close());

  const createKey = (headers: Record<string, string>) =>
    server.request('POST', KEYS, { headers, json: { name: 'made by a cookie' } });

  it('refuses a planted CSRF cookie sent with the same value as the header', async () => {
    const planted = 'p'.repeat(43);
    const res = await createKey({
      cookie: `${sessionCookieOf(victim)}; basalt_csrf=${planted}`,
      'x-csrf-token': planted,
    });
    expect([res.status, res.body.code]).toEqual([403, 'csrf_invalid']);
  });

  it('refuses the real token of another session', async () => {
    const res = await createKey({ cookie: victim.cookie, 'x-csrf-token': attacker.csrfToken });
    expect([res.status, res.body.code]).toEqual([403, 'csrf_invalid']);
  });

  it('refuses a token fetched before signing in, and takes the one fetched after', async () => {
    const before = await server.request('GET', '/api/csrf-token');
    const browserCookies = cookiePairs(before).join('; ');
    const login = await server.request('POST', '/api/auth/login', {
      headers: { cookie: browserCookies, 'x-csrf-token': before.body.csrfToken },
      json: { email: users.alice.email, password: users.alice.password },
    });
    expect(login.status).toBe(200);
    const cookie = [browserCookies, ...cookiePairs(login)].join('; ');
    const stale = await createKey({ cookie, 'x-csrf-token': before.body.csrfToken });
    expect([stale.status, stale.body.code]).toEqual([403, 'csrf_invalid']);
    // What the console does on that 403: fetch the token again (now for the session) and retry.
    const fresh = await server.request('GET', '/api/csrf-token', { headers: { cookie } });
    expect(fresh.body.csrfToken).not.toBe(before.body.csrfToken);
    expect((await createKey({ cookie, 'x-csrf-token': fresh.body.csrfToken })).status).toBe(201);
  });

  it('keeps the token stable for a session, and works with it', async () => {
    const again = await server.request('GET', '/api/csrf-token', { headers: { cookie: victim.cookie } });
    expect(again.body.csrfToken).toBe(victim.csrfToken);
    expect(again.headers.get('cache-control')).toBe('no-store');
    expect((await createKey(victim.headers)).status).toBe(201);
  });
});

describe.each(testDialects)('cookies of a site served over https on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startAuthServer(dialect, { siteUrl: 'https://basalt.example' });
    await signUpUser(server, users.alice);
  });
  afterAll(() => server.close());

  it('marks the session and CSRF cookies Secure', async () => {
    const csrf = await server.request('GET', '/api/csrf-token');
    expect(csrf.headers.getSetCookie()).toEqual([expect.stringMatching(/^basalt_csrf=.*; Secure/)]);
    const login = await server.request('POST', '/api/auth/login', {
      json: { email: users.alice.email, password: users.alice.password },
    });
    expect(login.headers.getSetCookie()).toEqual([expect.stringMatching(/^basalt_session=.*; Secure/)]);
    const cookie = cookiePairs(login)[0] ?? '';
    const logout = await server.request('POST', '/api/auth/logout', {
      headers: {
        cookie,
        'x-csrf-token': (await server.request('GET', '/api/csrf-token', { headers: { cookie } })).body.csrfToken,
      },
    });
    expect(logout.headers.getSetCookie()).toEqual([expect.stringMatching(/^basalt_session=;.*; Secure/)]);
  });

  it('leaves them without Secure for a site served over http', async () => {
    const plain = await startAuthServer(dialect);
    try {
      const csrf = await plain.request('GET', '/api/csrf-token');
      expect(csrf.headers.getSetCookie().join()).not.toMatch(/Secure/);
    } finally {
      await plain.close();
    }
  });
});
