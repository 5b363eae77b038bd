import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../../config.js';
import { keyHeaders, signUpUser, startAuthServer, type TestUser, users } from '../../../testing/auth.fixtures.js';
import { startTestServer, type TestServer, testDialects } from '../../../testing/test-server.js';

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

  it('counts ID-token sign-ins per IP, refused or not, on their own counter', async () => {
    const idToken = () => post('/auth/v1/token?grant_type=id_token', { provider: 'custom:none', id_token: 'x.y.z' });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await idToken()).status);
    expect(statuses).toEqual([400, 400, 400, 429]);
    expect((await idToken()).body).toMatchObject({ error_code: 'over_request_rate_limit' });
  });
});

/** postFrom sends a JSON POST from a given local address (127.0.0.0/8 all reaches the server), as another client. */
function postFrom(
  server: TestServer,
  address: string,
  path: string,
  json: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: { error_code?: string } }> {
  const { port } = new URL(server.url);
  const payload = JSON.stringify(json);
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        localAddress: address,
        headers: { ...keyHeaders(server.anonKey), 'content-type': 'application/json', ...headers },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk) => {
          text += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
      },
    );
    request.on('error', reject);
    request.end(payload);
  });
}

// AUTH_RATE_LIMIT=3 wrong passwords per IP, over every address. Right passwords are not counted.
describe.each(testDialects)('sign-in lockouts on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Math.ceil(Date.now() / 300_000) * 300_000 + 1000);
    server = await startAuthServer(dialect, { authRateLimit: 3 });
    // Made by the admin API, which no rate limit counts.
    for (const user of [users.alice, users.bob]) {
      await server.request('POST', '/auth/v1/admin/users', {
        headers: keyHeaders(server.serviceKey),
        json: { email: user.email, password: user.password, email_confirm: true },
      });
    }
  });
  afterAll(async () => {
    vi.useRealTimers();
    await server.close();
  });
  const signIn = (from: string, user: TestUser, password = user.password) =>
    postFrom(server, from, '/auth/v1/token?grant_type=password', { email: user.email, password });
  const statuses = async (count: number, attempt: (i: number) => Promise<{ status: number }>) => {
    const seen = [];
    for (let i = 0; i < count; i++) seen.push((await attempt(i)).status);
    return seen;
  };

  it('lets the owner sign in from elsewhere while an attacker has used up the failures of the address', async () => {
    const attacker = '127.0.0.2';
    expect(await statuses(3, () => signIn(attacker, users.alice, 'Wrong-Passw0rd!'))).toEqual([400, 400, 400]);
    const locked = await signIn(attacker, users.alice, 'Wrong-Passw0rd!');
    expect([locked.status, locked.body.error_code]).toEqual([429, 'over_request_rate_limit']);

    const owner = await signIn('127.0.0.3', users.alice);
    expect(owner.status).toBe(200);
    // The owner's own mistakes are counted on their own.
    expect((await signIn('127.0.0.3', users.alice, 'Wrong-Passw0rd!')).status).toBe(400);
  });

  it('does not count sign-ins with the right password', async () => {
    expect(await statuses(6, () => signIn('127.0.0.4', users.bob))).toEqual([200, 200, 200, 200, 200, 200]);
  });

  it('holds one IP to the limit over every address, and its right passwords still count for nothing', async () => {
    const spray = (i: number) =>
      signIn('127.0.0.5', { ...users.carol, email: `nobody${i}@example.com` }, 'Wrong-Passw0rd!');
    expect(await statuses(4, spray)).toEqual([400, 400, 400, 429]);
    expect((await signIn('127.0.0.5', users.bob)).status).toBe(429);
    expect((await signIn('127.0.0.6', users.bob)).status).toBe(200);
  });
});

// Password spraying meets the wall it meets on Supabase Auth: with the default AUTH_RATE_LIMIT (30 per 5 minutes),
// forty wrong passwords over forty emails from one address are refused from the 31st on, on the GoTrue sign-in and
// on the console's, whatever X-Forwarded-For says (it is not believed without TRUST_PROXY).
describe.each(testDialects)('password spraying on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Math.ceil(Date.now() / 300_000) * 300_000 + 1000);
    server = await startTestServer(dialect, { authRateLimit: loadConfig({}).authRateLimit });
  });
  afterAll(async () => {
    vi.useRealTimers();
    await server.close();
  });

  it.each([
    ['/auth/v1/token?grant_type=password', '127.0.0.7'],
    ['/api/auth/login', '127.0.0.8'],
  ])('refuses the 31st of 40 wrong passwords over 40 emails at %s', async (path, address) => {
    const seen: number[] = [];
    for (let i = 0; i < 40; i++) {
      const res = await postFrom(
        server,
        address,
        path,
        { email: `victim${i}@example.com`, password: 'Spring2026!' },
        { 'x-forwarded-for': `198.51.100.${i + 1}` },
      );
      seen.push(res.status);
    }
    expect(seen.slice(0, 30).every((status) => status === 400 || status === 401)).toBe(true);
    expect(seen.slice(30)).toEqual(Array(10).fill(429));
  });
});

// Behind a reverse proxy every request comes from the proxy's address: with TRUST_PROXY the limits count the
// client X-Forwarded-For names, without it they count the proxy (and an attacker locks the owner out again).
describe.each(testDialects)('sign-in lockouts behind a proxy on %s', (dialect) => {
  const servers: TestServer[] = [];
  afterAll(async () => {
    for (const server of servers) await server.close();
  });

  async function lockOutThenOwner(trustProxy: boolean | string[]): Promise<number> {
    const server = await startAuthServer(dialect, { authRateLimit: 2, trustProxy });
    servers.push(server);
    await server.request('POST', '/auth/v1/admin/users', {
      headers: keyHeaders(server.serviceKey),
      json: { email: users.carol.email, password: users.carol.password, email_confirm: true },
    });
    const signIn = (client: string, password: string) =>
      server.request('POST', '/auth/v1/token?grant_type=password', {
        headers: { ...keyHeaders(server.anonKey), 'x-forwarded-for': client },
        json: { email: users.carol.email, password },
      });
    for (let i = 0; i < 3; i++) await signIn('203.0.113.7', 'Wrong-Passw0rd!');
    return (await signIn('198.51.100.9', users.carol.password)).status;
  }

  it('counts the client X-Forwarded-For names when the proxy is trusted', async () => {
    expect(await lockOutThenOwner(['127.0.0.1'])).toBe(200);
  });

  it('counts the proxy itself when it is not', async () => {
    expect(await lockOutThenOwner(false)).toBe(429);
  });
});
