import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../testing/auth.fixtures.js';
import { createTable, type KeyedUser, seedItems, signUpWithKey } from '../../testing/public-api.fixtures.js';
import { startTestServer, type TestServer, testDialects } from '../../testing/test-server.js';
import { dayOf } from './billing-plans.js';
import { recordStorageDay } from './usage.store.js';

// Storage per day: each measurement is kept as its day's when it is the day's highest, so the Usage tab draws
// storage over the period like API calls; a day without a measurement carries the last one before it.

const MB = 1024 * 1024;

describe.each(testDialects)('storage per day (%s)', (dialect) => {
  let server: TestServer;
  let alice: KeyedUser;

  beforeAll(async () => {
    server = await startTestServer(dialect, { authRateLimit: 1000 });
    alice = await signUpWithKey(server, users.alice);
    await createTable(server, alice, 'items');
    await seedItems(server, alice, 'items', 20);
  }, 60_000);

  afterAll(async () => {
    await server?.close();
  });

  const history = async () =>
    (await server.request('GET', '/api/billing/usage/history', { headers: alice.tokenHeaders })).body as Array<{
      day: string;
      storageMb: number | null;
    }>;
  const storedBytes = async (day: string) =>
    (
      await server.app.basalt.db.kysely
        .selectFrom('user_usage')
        .select('storage_bytes')
        .where('account_id', '=', alice.id)
        .where('day', '=', day)
        .executeTakeFirst()
    )?.storage_bytes;

  it('keeps the measured storage as today’s and draws it in the history', async () => {
    const usage = (await server.request('GET', '/api/billing/usage', { headers: alice.tokenHeaders })).body;
    expect(usage.storageMb).toBeGreaterThan(0);
    const today = dayOf(Date.now());
    const days = await history();
    expect(days.at(-1)).toMatchObject({ day: today, storageMb: usage.storageMb });
    expect(Math.round((Number(await storedBytes(today)) / MB) * 100) / 100).toBe(usage.storageMb);
  });

  it('keeps the day’s highest measurement, whatever order they arrive in', async () => {
    const db = server.app.basalt.db;
    const today = dayOf(Date.now());
    const measured = Number(await storedBytes(today));
    await recordStorageDay(db, alice.id, today, measured - 1000);
    expect(Number(await storedBytes(today))).toBe(measured);
    await recordStorageDay(db, alice.id, today, 50 * MB);
    await recordStorageDay(db, alice.id, today, 50 * MB);
    expect(Number(await storedBytes(today))).toBe(50 * MB);
    expect((await history()).at(-1)?.storageMb).toBe(50);
  });

  it('carries the last measurement over the days without one, from before the period too', async () => {
    const db = server.app.basalt.db;
    const days = await history();
    const first = days[0]?.day ?? '';
    const dayBefore = dayOf(Date.parse(`${first}T00:00:00Z`) - 86_400_000);
    await recordStorageDay(db, alice.id, dayBefore, 7 * MB);
    const after = await history();
    expect(after[0]).toMatchObject({ day: first, storageMb: 7 });
    // Every day up to today's measurement carries it; today has its own.
    expect(after.slice(0, -1).every((d) => d.storageMb === 7)).toBe(true);
    expect(after.at(-1)?.storageMb).toBe(50);
    // The API calls of the day before the period are not the period's.
    expect(after.map((d) => d.day)).not.toContain(dayBefore);
  });

  it('gives a new account no storage history before its first measurement', async () => {
    const bob = await signUpWithKey(server, users.bob);
    const days = (await server.request('GET', '/api/billing/usage/history', { headers: bob.tokenHeaders })).body;
    expect(days.every((d: { storageMb: number | null }) => d.storageMb === null)).toBe(true);
  });
});
