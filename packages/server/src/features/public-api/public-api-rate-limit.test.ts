import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAuthServer, users } from '../../testing/auth.fixtures.js';
import { createTable, type KeyedUser, signUpWithKey } from '../../testing/public-api.fixtures.js';
import { type TestServer, testDialects } from '../../testing/test-server.js';
import { createKeyRateLimiter } from './public-api-rate-limit.js';

describe.each(testDialects)('the public API rate limit on %s', (dialect) => {
  let server: TestServer;
  let alice: KeyedUser;
  let bob: KeyedUser;
  beforeAll(async () => {
    server = await startAuthServer(dialect, { apiRateLimit: 3 });
    alice = await signUpWithKey(server, users.alice);
    bob = await signUpWithKey(server, users.bob);
    await createTable(server, alice, 'items');
    await createTable(server, bob, 'items');
  });
  afterAll(() => server.close());

  it('answers 429 with Retry-After and the public error body once a key used its minute', async () => {
    const statuses = [];
    for (let i = 0; i < 3; i++)
      statuses.push((await server.request('GET', '/api/table/items', { headers: alice.keyHeaders })).status);
    expect(statuses).toEqual([200, 200, 200]);
    const limited = await server.request('POST', '/api/items', { headers: alice.keyHeaders, json: { name: 'x' } });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect(limited.body).toEqual({
      error: { code: 'RATE_LIMITED', message: expect.stringMatching(/^Rate limit exceeded/), details: null },
    });
    // Counted per key: another account's key is not affected.
    expect((await server.request('GET', '/api/table/items', { headers: bob.keyHeaders })).status).toBe(200);
  });

  it('counts within one shared window across processes (limiters) on one database', async () => {
    const clock = { ms: Date.UTC(2031, 0, 1, 0, 0, 5) };
    const options = { limit: 5, now: () => clock.ms, autoFlush: false };
    const one = createKeyRateLimiter(server.app.basalt.db.kysely, options);
    const two = createKeyRateLimiter(server.app.basalt.db.kysely, options);
    expect([one.take('k'), one.take('k'), one.take('k')]).toEqual([0, 0, 0]);
    await one.flush();
    // `two` learns of `one`'s hits from the shared row when it flushes its own.
    expect(two.take('k')).toBe(0);
    await two.flush();
    expect(two.take('k')).toBe(0);
    expect(two.take('k')).toBe(55); // refused: 5 used, the window ends in 55 s
    // Refused requests are not counted, and a new window starts afresh.
    await two.flush();
    const row = await server.app.basalt.db.kysely
      .selectFrom('rate_limits')
      .selectAll()
      .where('key', '=', 'api:k@60')
      .executeTakeFirst();
    expect(Number(row?.count)).toBe(5);
    clock.ms += 60_000;
    expect(one.take('k')).toBe(0);
    await Promise.all([one.close(), two.close()]);
  });
});
