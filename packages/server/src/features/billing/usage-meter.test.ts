import { DEFAULT_PLANS } from '@basalt/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { users } from '../../testing/auth.fixtures.js';
import { signUpWithKey } from '../../testing/public-api.fixtures.js';
import { startTestServer, testDialects } from '../../testing/test-server.js';
import { sumApiCalls } from './usage.store.js';
import { createUsageMeter } from './usage-meter.js';

// The meter across a period's end: the calls of the old period stay counted where they were made, and the new
// period starts from zero, so an account held back at the end of one month is let through on the first of the next.

afterEach(() => {
  vi.useRealTimers();
});

describe.each(testDialects)('the meter at a new period (%s)', (dialect) => {
  it('lets an account through again when its period starts anew', async () => {
    const server = await startTestServer(dialect, { authRateLimit: 1000 });
    const meter = createUsageMeter(server.app.basalt.db, {
      plans: DEFAULT_PLANS.map((p) => ({ ...p, limits: { ...p.limits, apiCalls: 2 } })),
      enforce: true,
      refreshMs: 60_000,
    });
    try {
      // The first account administers the instance, and no cap holds an administrator back.
      await signUpWithKey(server, users.dave);
      const alice = await signUpWithKey(server, users.alice);
      // Only Date is faked: the database's timers and sockets keep real time.
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(new Date('2031-01-31T23:59:00Z'));
      expect(await meter.admit(alice.id, false)).toBeNull();
      expect(await meter.admit(alice.id, false)).toBeNull();
      expect(await meter.admit(alice.id, false)).toMatchObject({
        status: 429,
        details: { details: { resetAt: '2031-02-01T00:00:00.000Z' } },
      });
      vi.setSystemTime(new Date('2031-02-01T00:00:01Z'));
      expect(await meter.admit(alice.id, false)).toBeNull();
      await meter.flush();
      const { db } = server.app.basalt;
      expect(await sumApiCalls(db, alice.id, '2031-01-31')).toBe(3);
      expect(await sumApiCalls(db, alice.id, '2031-02-01')).toBe(1);
    } finally {
      vi.useRealTimers();
      await meter.close();
      await server.close();
    }
  });
});
