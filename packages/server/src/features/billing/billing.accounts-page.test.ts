import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../testing/auth.fixtures.js';
import { type KeyedUser, signUpWithKey } from '../../testing/public-api.fixtures.js';
import { accountRow } from '../../testing/rows.fixtures.js';
import { startTestServer, type TestServer, testDialects } from '../../testing/test-server.js';
import { dayOf } from './billing-plans.js';
import { recordStorageDay } from './usage.store.js';

// The administrator's accounts view with many accounts: paged (page, limit, search), every account once and in
// order, storage read as stored when measured today (else measured, a few accounts at a time, and kept).

const MANY = 130;
const MB = 1024 * 1024;

interface Row {
  accountId: string;
  email: string;
  usage: { storageMb: number; apiCalls: number };
}

describe.each(testDialects)('the administrator’s accounts, paged (%s)', (dialect) => {
  let server: TestServer;
  let admin: KeyedUser;
  let alice: KeyedUser;

  beforeAll(async () => {
    server = await startTestServer(dialect, { authRateLimit: 1000 });
    admin = await signUpWithKey(server, users.dave);
    alice = await signUpWithKey(server, users.alice);
    // Many accounts at once, straight into the table: signing each up would hash as many passwords.
    const start = Date.parse('2026-01-01T00:00:00Z');
    const rows = Array.from({ length: MANY }, (_, i) => {
      const at = new Date(start + i * 1000).toISOString();
      const n = String(i).padStart(3, '0');
      return accountRow({ email: `member${n}@example.com`, username: `member${n}`, username_key: `member${n}` }, at);
    });
    await server.app.basalt.db.kysely.insertInto('accounts').values(rows).execute();
  }, 60_000);

  afterAll(async () => {
    await server?.close();
  });

  const page = (query: string, user: KeyedUser = admin) =>
    server.request('GET', `/api/billing/accounts${query}`, { headers: user.tokenHeaders });

  it('pages every account once, oldest first, and keeps each one’s storage measured today', async () => {
    const seen: string[] = [];
    for (let p = 1; p <= 2; p++) {
      const res = await page(`?page=${p}&limit=100`);
      expect(res.status).toBe(200);
      expect(res.body.pagination).toEqual({
        totalItems: MANY + 2,
        totalPages: 2,
        currentPage: p,
        hasNext: p === 1,
        hasPrevious: p === 2,
      });
      for (const row of res.body.data as Row[]) {
        seen.push(row.email);
        expect(row.usage.storageMb).toBeGreaterThanOrEqual(0);
      }
    }
    expect(seen).toHaveLength(MANY + 2);
    expect(new Set(seen).size).toBe(MANY + 2);
    expect(seen.slice(0, 3)).toEqual(['member000@example.com', 'member001@example.com', 'member002@example.com']);
    // Each was measured today, and that measurement is kept: the next view reads it.
    const measured = await server.app.basalt.db.kysely
      .selectFrom('user_usage')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('day', '=', dayOf(Date.now()))
      .where('storage_bytes', 'is not', null)
      .executeTakeFirst();
    expect(Number(measured?.n)).toBe(MANY + 2);
  }, 60_000);

  it('reads storage as stored when it was measured today', async () => {
    const first = (await page('?limit=1')).body.data[0] as Row;
    await recordStorageDay(server.app.basalt.db, first.accountId, dayOf(Date.now()), 5 * MB);
    const again = (await page('?limit=1')).body.data[0] as Row;
    expect(again.usage.storageMb).toBe(5);
  });

  it('defaults to 20 a page and searches emails and usernames', async () => {
    const first = await page('');
    expect(first.body.data).toHaveLength(20);
    expect(first.body.pagination).toMatchObject({ totalItems: MANY + 2, totalPages: 7, currentPage: 1 });
    const found = await page('?search=MEMBER12');
    expect((found.body.data as Row[]).map((r) => r.email)).toEqual(
      Array.from({ length: 10 }, (_, i) => `member12${i}@example.com`),
    );
    const beyond = await page('?page=99');
    expect(beyond.status).toBe(200);
    expect(beyond.body.data).toEqual([]);
  });

  it.each([
    ['a page of 0', '?page=0', 'page must be a whole number of 1 or more'],
    ['a page that is not a number', '?page=two', 'page must be a whole number of 1 or more'],
    ['a limit over 100', '?limit=101', 'limit must be a whole number from 1 to 100'],
    ['a limit of 0', '?limit=0', 'limit must be a whole number from 1 to 100'],
  ])('answers %s with 400', async (_name, query, message) => {
    const res = await page(query);
    expect(res.status).toBe(400);
    expect(res.text).toContain(message);
  });

  it('refuses whoever is not an administrator', async () => {
    expect((await page('', alice)).status).toBe(403);
    expect((await server.request('GET', '/api/billing/accounts')).status).toBe(401);
  });
});
