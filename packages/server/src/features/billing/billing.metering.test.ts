import { DEFAULT_PLANS, type Plan } from '@basalt/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BillingConfig } from '../../config-billing.js';
import { createMailer } from '../../lib/mail/mailer.js';
import { users } from '../../testing/auth.fixtures.js';
import { startMailbox } from '../../testing/auth-mail.fixtures.js';
import { createTable, type KeyedUser, signUpWithKey } from '../../testing/public-api.fixtures.js';
import { startTestServer, type TestServer, testDialects } from '../../testing/test-server.js';
import { dayOf, periodOf } from './billing-plans.js';
import { addUsageBatch } from './usage.store.js';
import { createUsageWarnings } from './usage-warnings.js';

// Metering and quotas on a real server: every request to the data and function APIs made for an account is
// counted exactly once, the plan's caps refuse what goes beyond them, and a new period starts from zero.

function billingWith(limits: Partial<Plan['limits']>, extra: Partial<BillingConfig> = {}): BillingConfig {
  return {
    metering: true,
    meteringRefreshMs: 100,
    quotas: 'enforce',
    plans: DEFAULT_PLANS.map((p) => (p.id === 'free' ? { ...p, limits: { ...p.limits, ...limits } } : p)),
    stripe: null,
    ...extra,
  };
}

// The warnings are given when the meter next reads an account's usage, off the request's path: the notifications
// are read until `count` are there (or a generous deadline passed), whatever the machine's speed.
async function notificationsOnceThere(server: TestServer, user: KeyedUser, count: number) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const list = await server.request('GET', '/api/user/notifications', { headers: user.tokenHeaders });
    if (list.status !== 200 || list.body.length >= count || Date.now() > deadline) return list;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const restHeaders = (server: TestServer, user: KeyedUser) => ({
  apikey: server.anonKey,
  authorization: `Bearer ${user.accessToken}`,
});

async function usageOf(server: TestServer, user: KeyedUser) {
  await server.app.basalt.usage?.flush();
  return (await server.request('GET', '/api/billing/usage', { headers: user.tokenHeaders })).body;
}

describe.each(testDialects)('metering (%s)', (dialect) => {
  let server: TestServer;
  let alice: KeyedUser;
  let bob: KeyedUser;

  beforeAll(async () => {
    server = await startTestServer(dialect, { authRateLimit: 1000, billing: billingWith({}) });
    alice = await signUpWithKey(server, users.alice);
    bob = await signUpWithKey(server, users.bob);
    await createTable(server, alice, 'items');
  }, 60_000);

  afterAll(async () => {
    await server?.close();
  });

  it('counts each metered request exactly once, under concurrent load, per account', async () => {
    const before = (await usageOf(server, alice)).apiCalls;
    const metered = [
      () => server.request('GET', '/api/table/items', { headers: alice.keyHeaders }),
      () => server.request('GET', '/api/items', { headers: alice.keyHeaders }),
      () => server.request('POST', '/api/table/items', { headers: alice.keyHeaders, json: { name: 'x' } }),
      () => server.request('GET', '/rest/v1/items?select=id', { headers: restHeaders(server, alice) }),
      // A refused request to a metered API still reached it: it counts.
      () => server.request('GET', '/api/table/items/999999', { headers: alice.keyHeaders }),
      () => server.request('GET', '/functions/v1/missing', { headers: restHeaders(server, alice) }),
      () => server.request('POST', '/api/edge/missing', { headers: alice.keyHeaders, json: {} }),
    ];
    const notMetered = [
      () => server.request('GET', '/api/tables', { headers: alice.tokenHeaders }),
      () => server.request('GET', '/api/billing/usage', { headers: alice.tokenHeaders }),
      () => server.request('GET', '/api/table/items'),
    ];
    const rounds = 60;
    const calls: Promise<{ status: number }>[] = [];
    for (let i = 0; i < rounds; i++) {
      for (const call of metered) calls.push(call());
      for (const call of notMetered) calls.push(call());
    }
    const answers = await Promise.all(calls);
    expect(answers.filter((a) => a.status >= 500)).toEqual([]);
    expect((await usageOf(server, alice)).apiCalls - before).toBe(rounds * metered.length);
    expect((await usageOf(server, bob)).apiCalls).toBe(0);
  });

  it('drops the counts of an account deleted before they were stored, and keeps the others', async () => {
    const carol = await signUpWithKey(server, users.carol);
    await createTable(server, carol, 'items');
    await usageOf(server, bob);
    const before = (await usageOf(server, bob)).apiCalls;
    await server.request('GET', '/api/table/items', { headers: carol.keyHeaders });
    await server.request('GET', '/api/table/nothing', { headers: bob.keyHeaders });
    const gone = await server.request('DELETE', '/api/user', {
      headers: carol.tokenHeaders,
      json: { confirm: users.carol.username },
    });
    expect(gone.status).toBe(200);
    expect((await usageOf(server, bob)).apiCalls - before).toBe(1);
  });

  it('adds a batch once however often it is retried', async () => {
    const { db } = server.app.basalt;
    const before = (await usageOf(server, bob)).apiCalls;
    const counts = [{ accountId: bob.id, day: dayOf(Date.now()), apiCalls: 7 }];
    expect(await addUsageBatch(db, 'batch-retried', counts)).toBe(true);
    expect(await addUsageBatch(db, 'batch-retried', counts)).toBe(false);
    expect((await usageOf(server, bob)).apiCalls - before).toBe(7);
  });

  it('starts each period from zero and keeps a history per day', async () => {
    const { db } = server.app.basalt;
    const now = new Date();
    const lastMonth = dayOf(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 15));
    await addUsageBatch(db, 'last-month', [{ accountId: bob.id, day: lastMonth, apiCalls: 1_000_000 }]);
    const usage = await usageOf(server, bob);
    expect(usage.apiCalls).toBeLessThan(1000);
    expect(usage.periodStart).toBe(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString());
    const history = await server.request('GET', '/api/billing/usage/history', { headers: bob.tokenHeaders });
    expect(history.status).toBe(200);
    expect(history.body.at(-1)).toEqual({
      day: dayOf(now),
      apiCalls: usage.apiCalls,
      computeMinutes: 0,
      storageMb: usage.storageMb,
    });
    expect(history.body.find((d: { day: string }) => d.day === lastMonth)).toBeUndefined();
  });
});

describe('billing periods', () => {
  const row = (start: string | null, end: string | null, status: string | null) => ({
    subscription_period_start: start,
    subscription_renewal_date: end,
    subscription_status: status,
  });

  it('is the calendar month without a live subscription, else the subscription period', () => {
    const now = new Date('2026-03-20T10:00:00Z');
    expect(periodOf(row(null, null, null), now)).toEqual({
      start: new Date('2026-03-01T00:00:00Z'),
      end: new Date('2026-04-01T00:00:00Z'),
    });
    const stripe = row('2026-03-12T08:00:00.000Z', '2026-04-12T08:00:00.000Z', 'active');
    expect(periodOf(stripe, now).start.toISOString()).toBe('2026-03-12T08:00:00.000Z');
    // Past its end (the renewal's event not yet in) or canceled: back to the calendar month.
    expect(periodOf(stripe, new Date('2026-04-13T00:00:00Z')).start.toISOString()).toBe('2026-04-01T00:00:00.000Z');
    expect(periodOf({ ...stripe, subscription_status: 'canceled' }, now).start.toISOString()).toBe(
      '2026-03-01T00:00:00.000Z',
    );
  });
});

describe.each(testDialects)('quotas (%s)', (dialect) => {
  let server: TestServer;
  let admin: KeyedUser;
  let alice: KeyedUser;
  let bob: KeyedUser;

  beforeAll(async () => {
    server = await startTestServer(dialect, { authRateLimit: 1000, billing: billingWith({ apiCalls: 5 }) });
    admin = await signUpWithKey(server, users.dave);
    alice = await signUpWithKey(server, users.alice);
    bob = await signUpWithKey(server, users.bob);
    await createTable(server, alice, 'items');
    await createTable(server, bob, 'items');
  }, 60_000);

  afterAll(async () => {
    await server?.close();
  });

  it('refuses API calls over the plan with 429 and the limit and reset time, in each API family', async () => {
    for (let i = 0; i < 5; i++) {
      expect((await server.request('GET', '/api/table/items', { headers: alice.keyHeaders })).status).toBe(200);
    }
    const refused = await server.request('GET', '/api/table/items', { headers: alice.keyHeaders });
    expect(refused.status).toBe(429);
    const usage = await usageOf(server, alice);
    expect(refused.body).toEqual({
      error: {
        code: 'QUOTA_EXCEEDED',
        message: expect.stringContaining('limit of 5 API calls'),
        details: { metric: 'apiCalls', limit: 5, used: 5, resetAt: usage.periodEnd },
      },
    });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    const rest = await server.request('GET', '/rest/v1/items', { headers: restHeaders(server, alice) });
    expect(rest.status).toBe(429);
    expect(rest.body).toMatchObject({ code: 'quota_exceeded' });
    // Refused calls are not counted, and another account is not held back.
    expect(usage.apiCalls).toBe(5);
    expect((await server.request('GET', '/api/table/items', { headers: bob.keyHeaders })).status).toBe(200);
    // The console's own calls go on.
    expect((await server.request('GET', '/api/tables', { headers: alice.tokenHeaders })).status).toBe(200);
  });

  it('warns at 80 % and 100 % in the notifications, once each', async () => {
    await new Promise((resolve) => setTimeout(resolve, 150));
    await server.request('GET', '/api/table/items', { headers: alice.keyHeaders });
    const list = await notificationsOnceThere(server, alice, 1);
    expect(list.status).toBe(200);
    const titles = list.body.map((n: { title: string }) => n.title);
    expect(titles).toContain('API calls limit reached');
    expect(titles.filter((t: string) => t === 'API calls limit reached')).toHaveLength(1);
    // Bob used 1 of 5: two more, and the call during which the next reading is taken, make 80 %.
    for (let i = 0; i < 2; i++) await server.request('GET', '/api/table/items', { headers: bob.keyHeaders });
    await new Promise((resolve) => setTimeout(resolve, 150));
    await server.request('GET', '/api/table/items', { headers: bob.keyHeaders });
    const bobs = await notificationsOnceThere(server, bob, 1);
    expect(bobs.body).toEqual([
      {
        id: expect.any(Number),
        title: '80% of API calls used',
        message: 'You have used 80% of your plan’s API calls (4 of 5) this billing period.',
        read: false,
        createdAt: expect.any(String),
      },
    ]);
    const read = await server.request('POST', '/api/user/notifications/read', {
      headers: alice.tokenHeaders,
      json: {},
    });
    expect(read.status).toBe(200);
    const after = await server.request('GET', '/api/user/notifications', { headers: alice.tokenHeaders });
    expect(after.body.every((n: { read: boolean }) => n.read)).toBe(true);
  });

  it('mails each warning once when SMTP is configured', async () => {
    const mailbox = await startMailbox();
    try {
      const { db } = server.app.basalt;
      const mailer = createMailer({ smtpUrl: mailbox.url, from: 'Basalt <no-reply@example.com>', log: server.app.log });
      const warnings = createUsageWarnings(db, { mailer, siteUrl: 'https://basalt.example' });
      const usage = await usageOf(server, bob);
      const storage = { ...usage, storageMb: 900, maxStorageMb: 1000 };
      warnings.check(bob.id, storage);
      const mail = await mailbox.latest(users.bob.email);
      expect(mail.subject).toBe('Basalt: 80% of storage used');
      expect(mail.text).toContain('https://basalt.example/billing');
      // Another node noticing the same reading stores nothing and mails nothing.
      createUsageWarnings(db, { mailer, siteUrl: 'https://basalt.example' }).check(bob.id, storage);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(mailbox.mails.filter((m) => m.subject === 'Basalt: 80% of storage used')).toHaveLength(1);
      mailer.close();
    } finally {
      await mailbox.close();
    }
  });

  it('lets an unlimited plan through at once when the administrator assigns it', async () => {
    const assigned = await server.request('PUT', `/api/billing/accounts/${alice.id}/plan`, {
      headers: admin.tokenHeaders,
      json: { planId: 'enterprise' },
    });
    expect(assigned.status).toBe(200);
    for (let i = 0; i < 3; i++) {
      expect((await server.request('GET', '/api/table/items', { headers: alice.keyHeaders })).status).toBe(200);
    }
    expect((await usageOf(server, alice)).maxApiCalls).toBeNull();
  });

  it('refuses function invocations once compute minutes are used up', async () => {
    const { db, usage } = server.app.basalt;
    expect(await usage?.refusal(bob.id, 'computeMinutes')).toBeNull();
    const hour = `${new Date().toISOString().slice(0, 13)}:00:00.000Z`;
    await db.kysely
      .insertInto('function_usage')
      .values({
        function_id: 1,
        hour,
        account_id: bob.id,
        invocations: 1,
        errors: 0,
        cpu_ms: 100 * 60_000,
        duration_ms: 1,
      })
      .execute();
    db.publish('plan.changed', { accountId: bob.id });
    const refused = await usage?.refusal(bob.id, 'computeMinutes');
    expect(refused).toMatchObject({ status: 429, code: 'compute_quota_exceeded' });
    expect((await usageOf(server, bob)).computeMinutes).toBe(100);
  });
});

describe.each(testDialects)('storage quota (%s)', (dialect) => {
  let server: TestServer;
  let alice: KeyedUser;

  beforeAll(async () => {
    server = await startTestServer(dialect, { authRateLimit: 1000, billing: billingWith({ storageMb: 0 }) });
    // The first account administers the instance, and no cap holds an administrator back.
    await signUpWithKey(server, users.dave);
    alice = await signUpWithKey(server, users.alice);
    await createTable(server, alice, 'items');
  }, 60_000);

  afterAll(async () => {
    await server?.close();
  });

  it('refuses writes that grow storage with 413 and lets reads through', async () => {
    const write = await server.request('POST', '/api/table/items', { headers: alice.keyHeaders, json: { name: 'a' } });
    expect(write.status).toBe(413);
    expect(write.body.error.code).toBe('STORAGE_QUOTA_EXCEEDED');
    const rest = await server.request('POST', '/rest/v1/items', {
      headers: restHeaders(server, alice),
      json: { name: 'b' },
    });
    expect(rest.status).toBe(413);
    expect(rest.body.code).toBe('storage_quota_exceeded');
    const read = await server.request('GET', '/api/table/items', { headers: alice.keyHeaders });
    expect(read.status).toBe(200);
    expect(read.body).toEqual([]);
  });
});

describe.each(testDialects)('metering off (%s)', (dialect) => {
  it('counts nothing and refuses nothing', async () => {
    const server = await startTestServer(dialect, {
      authRateLimit: 1000,
      billing: billingWith({ apiCalls: 1 }, { metering: false }),
    });
    try {
      const alice = await signUpWithKey(server, users.alice);
      await createTable(server, alice, 'items');
      for (let i = 0; i < 3; i++) {
        expect((await server.request('GET', '/api/table/items', { headers: alice.keyHeaders })).status).toBe(200);
      }
      expect(server.app.basalt.usage).toBeNull();
      expect((await usageOf(server, alice)).apiCalls).toBe(0);
    } finally {
      await server.close();
    }
  });
});

describe.each(testDialects)('compute quota (%s)', (dialect) => {
  it("refuses a function's invocations once its owner's compute minutes are used up", async () => {
    const server = await startTestServer(dialect, { authRateLimit: 1000, billing: billingWith({ computeMinutes: 0 }) });
    try {
      // The first account administers the instance, and no cap holds an administrator back.
      await signUpWithKey(server, users.dave);
      const alice = await signUpWithKey(server, users.alice);
      const created = await server.request('POST', '/api/edge-functions', {
        headers: alice.tokenHeaders,
        json: { name: 'hello', verifyJwt: false, code: 'Deno.serve(() => new Response("hi"));' },
      });
      expect(created.status).toBe(201);
      const deployed = await server.request('POST', `/api/edge-functions/${created.body.id}/deploy`, {
        headers: alice.tokenHeaders,
      });
      expect(deployed.status).toBe(200);
      // Anyone may call it; its owner pays, and the owner's plan has no compute left.
      const call = await server.request('GET', '/api/edge/hello');
      expect(call.status).toBe(429);
      expect(call.body).toMatchObject({ code: 'compute_quota_exceeded' });
      const invoke = await server.request('POST', '/functions/v1/hello', {
        headers: restHeaders(server, alice),
        json: {},
      });
      expect(invoke.status).toBe(429);
    } finally {
      await server.close();
    }
  });
});
