import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type TestServer, testDialects } from '../../testing/test-server.js';
import { keyHeaders, signUpUser, startAuthServer, users } from './auth.fixtures.js';

// AUTH_RATE_LIMIT=3: the fourth attempt of a kind within five minutes is refused.
describe.each(testDialects)('auth rate limits on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    // Windows are fixed 5-minute slots: freeze the clock just after one starts so none rolls over mid-test.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Math.ceil(Date.now() / 300_000) * 300_000 + 1000);
    server = await startAuthServer(dialect, { authRateLimit: 3 });
  });
  afterAll(async () => {
    vi.useRealTimers();
    await server.close();
  });
  const post = (url: string, json: unknown) =>
    server.request('POST', url, { headers: keyHeaders(server.anonKey), json });
  const wrongSignIn = () =>
    post('/auth/v1/token?grant_type=password', { email: users.alice.email, password: 'Wrong-Passw0rd!' });

  it('limits sign-in attempts per IP and email with 429 over_request_rate_limit and Retry-After', async () => {
    await signUpUser(server, users.alice);
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await wrongSignIn()).status);
    expect(statuses).toEqual([400, 400, 400]);
    const limited = await wrongSignIn();
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({
      code: 429,
      error_code: 'over_request_rate_limit',
      msg: 'Request rate limit reached',
    });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('counts console logins with GoTrue sign-ins and answers in the console shape', async () => {
    const res = await server.request('POST', '/api/auth/login', {
      json: { email: users.alice.email, password: users.alice.password },
    });
    expect(res.status).toBe(429);
    expect(res.body).toMatchObject({ code: 'over_request_rate_limit', message: 'Request rate limit reached' });
  });

  it('keeps sign-ups, recovery and refresh on their own counters', async () => {
    // Alice's sign-up was the first of three.
    expect((await post('/auth/v1/signup', { email: users.bob.email, password: users.bob.password })).status).toBe(200);
    expect((await post('/auth/v1/signup', { email: 'x', password: 'y' })).status).toBe(400);
    expect((await post('/auth/v1/signup', { email: users.dave.email, password: users.dave.password })).status).toBe(
      429,
    );

    const recovers = [];
    for (let i = 0; i < 4; i++) recovers.push((await post('/auth/v1/recover', { email: `r${i}@example.com` })).status);
    expect(recovers).toEqual([200, 200, 200, 429]);

    const refreshes = [];
    for (let i = 0; i < 5; i++)
      refreshes.push((await post('/auth/v1/token?grant_type=refresh_token', { refresh_token: 'x'.repeat(32) })).status);
    expect(refreshes).toEqual([400, 400, 400, 400, 400]);
  });
});
