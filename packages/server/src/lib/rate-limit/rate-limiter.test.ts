import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../../testing/auth.fixtures.js';
import { type TestServer, testDialects } from '../../testing/test-server.js';
import { createRateLimiter } from './rate-limiter.js';

describe.each(testDialects)('createRateLimiter on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(dialect);
  });
  afterAll(() => server.close());
  const db = () => server.app.basalt.db.kysely;
  const clock = (start: number) => {
    const state = { ms: start };
    return { now: () => new Date(state.ms), state };
  };
  const rule = { limit: 2, windowSeconds: 60 };

  it('allows `limit` hits per window, then says when the window ends', async () => {
    const { now, state } = clock(Date.UTC(2030, 0, 1, 0, 0, 10));
    const limiter = createRateLimiter(db(), { now });
    const results = [await limiter.hit('a', rule), await limiter.hit('a', rule), await limiter.hit('a', rule)];
    expect(results.map((r) => r.allowed)).toEqual([true, true, false]);
    expect(results[2]).toMatchObject({ count: 3, retryAfterSeconds: 50 });
    state.ms += 50_000;
    expect((await limiter.hit('a', rule)).allowed).toBe(true);
  });

  it('keeps keys and window lengths apart', async () => {
    const { now } = clock(Date.UTC(2030, 0, 2));
    const limiter = createRateLimiter(db(), { now });
    await limiter.hit('b', rule);
    await limiter.hit('b', rule);
    expect((await limiter.hit('c', rule)).allowed).toBe(true);
    expect((await limiter.hit('b', { limit: 2, windowSeconds: 300 })).allowed).toBe(true);
  });

  it('counts keys holding a NUL character, apart from the same key spelled with a backslash', async () => {
    const { now } = clock(Date.UTC(2030, 0, 5));
    const limiter = createRateLimiter(db(), { now });
    expect(await limiter.hit('email:a\u0000b', rule)).toMatchObject({ allowed: true, count: 1 });
    expect(await limiter.hit('email:a\u0000b', rule)).toMatchObject({ allowed: true, count: 2 });
    expect(await limiter.hit('email:a\\0b', rule)).toMatchObject({ allowed: true, count: 1 });
  });

  it('shares counters between limiters (server processes) on one database', async () => {
    const { now } = clock(Date.UTC(2030, 0, 3));
    const [one, two] = [createRateLimiter(db(), { now }), createRateLimiter(db(), { now })];
    const hits = await Promise.all([one.hit('d', rule), two.hit('d', rule), one.hit('d', rule), two.hit('d', rule)]);
    expect(hits.map((h) => h.count).sort()).toEqual([1, 2, 3, 4]);
    expect(hits.filter((h) => h.allowed)).toHaveLength(2);
  });

  it('spaces hits a whole interval from the last allowed one, across a clock window’s edge', async () => {
    // 59 s into a minute: a fixed window would allow the next hit a second later.
    const { now, state } = clock(Date.UTC(2030, 0, 6, 0, 0, 59));
    const [one, two] = [createRateLimiter(db(), { now }), createRateLimiter(db(), { now })];
    expect(await one.spaced('mail:x', 60)).toMatchObject({ allowed: true });
    state.ms += 1_000;
    expect(await two.spaced('mail:x', 60)).toMatchObject({ allowed: false, retryAfterSeconds: 59 });
    // A refused hit does not move the spacing on.
    state.ms += 58_000;
    expect(await one.spaced('mail:x', 60)).toMatchObject({ allowed: false, retryAfterSeconds: 1 });
    expect(await one.spaced('mail:y', 60)).toMatchObject({ allowed: true });
    state.ms += 1_000;
    expect(await two.spaced('mail:x', 60)).toMatchObject({ allowed: true });
    // Of several processes asking at once, one gets the turn.
    state.ms += 60_000;
    const turns = await Promise.all([one.spaced('mail:x', 60), two.spaced('mail:x', 60), one.spaced('mail:x', 60)]);
    expect(turns.filter((turn) => turn.allowed)).toHaveLength(1);
  });

  it('sweeps windows older than an hour', async () => {
    const { now, state } = clock(Date.UTC(2030, 0, 4));
    await createRateLimiter(db(), { now }).hit('old', rule);
    state.ms += 2 * 3600_000;
    await createRateLimiter(db(), { now }).hit('new', rule);
    const keys = (await db().selectFrom('rate_limits').select('key').execute()).map((r) => r.key);
    expect(keys).toContain('new@60');
    expect(keys).not.toContain('old@60');
  });

  it('takes a hit back within its window, never below nothing', async () => {
    const { now, state } = clock(Date.UTC(2030, 0, 5, 0, 0, 10));
    const limiter = createRateLimiter(db(), { now });
    await limiter.hit('f', rule);
    await limiter.hit('f', rule);
    await limiter.undo('f', rule);
    expect(await limiter.hit('f', rule)).toMatchObject({ allowed: true, count: 2 });
    await limiter.undo('f', rule);
    await limiter.undo('f', rule);
    await limiter.undo('f', rule);
    expect((await limiter.hit('f', rule)).count).toBe(1);
    // A hit of an earlier window is not taken from the next one.
    state.ms += 60_000;
    await limiter.hit('f', rule);
    state.ms -= 60_000;
    await limiter.undo('f', rule);
    state.ms += 60_000;
    expect((await limiter.hit('f', rule)).count).toBe(2);
  });

  it('refuses windows longer than an hour', async () => {
    await expect(createRateLimiter(db()).hit('e', { limit: 1, windowSeconds: 7200 })).rejects.toThrow(/at most/);
  });
});
