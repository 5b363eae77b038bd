import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { users } from '../../testing/auth.fixtures.js';
import { createTable, type KeyedUser, signUpWithKey } from '../../testing/public-api.fixtures.js';
import { startTestServer, type TestServer, testDialects } from '../../testing/test-server.js';
import { dayOf } from './billing-plans.js';
import { addUsageBatch } from './usage.store.js';

// Who meets a plan's cap. Somebody running Basalt for their own app never does: the caps hold only where the
// operator sells plans (Stripe configured) or asks for them (QUOTAS=enforce), and never an administrator of the
// instance. Usage is counted and shown either way. The Free plan's 10,000 API calls a month are the cap here.

const FREE_CALLS = 10_000;

/** callsFrom sends `count` metered calls of an account, `parallel` at a time, and tallies the statuses. */
async function callsFrom(server: TestServer, user: KeyedUser, count: number, parallel = 16) {
  const statuses = new Map<number, number>();
  let next = 0;
  const restHeaders = { apikey: server.anonKey, authorization: `Bearer ${user.accessToken}` };
  const worker = async () => {
    while (next < count) {
      const i = next++;
      // Reads by API key are answered before Fastify (http/fast-reads.ts); every tenth call is a REST write,
      // which Fastify's metering hook admits.
      const res =
        i % 10 === 9
          ? await fetch(`${server.url}/rest/v1/items`, {
              method: 'POST',
              headers: { ...restHeaders, 'content-type': 'application/json' },
              body: JSON.stringify({ name: `n${i}` }),
            })
          : await fetch(`${server.url}/api/table/items?limit=1`, { headers: user.keyHeaders });
      await res.arrayBuffer();
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  return Object.fromEntries(statuses);
}

async function usageOf(server: TestServer, user: KeyedUser) {
  await server.app.basalt.usage?.flush();
  return (await server.request('GET', '/api/billing/usage', { headers: user.tokenHeaders })).body;
}

describe.each(testDialects)('a fresh instance (%s)', (dialect) => {
  let server: TestServer;
  let alice: KeyedUser;

  beforeAll(async () => {
    server = await startTestServer(dialect, { authRateLimit: 1000, billing: loadConfig({}).billing });
    // The first account administers the instance; alice is an ordinary account on the Free plan.
    await signUpWithKey(server, users.dave);
    alice = await signUpWithKey(server, users.alice);
    await createTable(server, alice, 'items');
  }, 60_000);

  afterAll(async () => {
    await server?.close();
  });

  it('refuses none of 12,000 calls from one account, and counts and shows them all', async () => {
    const before = (await usageOf(server, alice)).apiCalls;
    expect(await callsFrom(server, alice, 12_000)).toEqual({ 200: 10_800, 201: 1200 });
    const usage = await usageOf(server, alice);
    expect(usage.apiCalls - before).toBe(12_000);
    // The plan's cap is still shown beside the usage; it only holds nobody back.
    expect(usage).toMatchObject({ plan: 'free', maxApiCalls: FREE_CALLS });
  }, 120_000);
});

describe.each(testDialects)('QUOTAS=enforce (%s)', (dialect) => {
  let server: TestServer;
  let admin: KeyedUser;
  let alice: KeyedUser;

  beforeAll(async () => {
    server = await startTestServer(dialect, {
      authRateLimit: 1000,
      billing: loadConfig({ QUOTAS: 'enforce' }).billing,
    });
    admin = await signUpWithKey(server, users.dave);
    alice = await signUpWithKey(server, users.alice);
    await createTable(server, alice, 'items');
    await createTable(server, admin, 'items');
  }, 60_000);

  afterAll(async () => {
    await server?.close();
  });

  it('lets the Free plan’s 10,000 calls through and refuses the 10,001st with 429', async () => {
    const before = (await usageOf(server, alice)).apiCalls;
    expect(await callsFrom(server, alice, FREE_CALLS - before)).not.toHaveProperty('429');
    const fast = await server.request('GET', '/api/table/items?limit=1', { headers: alice.keyHeaders });
    expect(fast.status).toBe(429);
    expect(fast.body.error).toMatchObject({ code: 'QUOTA_EXCEEDED', details: { limit: FREE_CALLS, used: FREE_CALLS } });
    const write = await server.request('POST', '/rest/v1/items', {
      headers: { apikey: server.anonKey, authorization: `Bearer ${alice.accessToken}` },
      json: { name: 'one too many' },
    });
    expect(write).toMatchObject({ status: 429, body: { code: 'quota_exceeded' } });
    expect((await usageOf(server, alice)).apiCalls).toBe(FREE_CALLS);
  }, 120_000);

  it('never holds an administrator of the instance back', async () => {
    await addUsageBatch(server.app.basalt.db, 'admin-over-cap', [
      { accountId: admin.id, day: dayOf(Date.now()), apiCalls: FREE_CALLS * 5 },
    ]);
    for (let i = 0; i < 3; i++) {
      const res = await server.request('GET', '/api/table/items', { headers: admin.keyHeaders });
      expect(res.status).toBe(200);
    }
    expect(await server.app.basalt.usage?.refusal(admin.id, 'computeMinutes')).toBeNull();
    // Counted and shown all the same.
    expect((await usageOf(server, admin)).apiCalls).toBeGreaterThan(FREE_CALLS * 5);
  });

  it('stops holding an account back the moment it is made an administrator, and its checks follow', async () => {
    const bob = await signUpWithKey(server, users.bob);
    await createTable(server, bob, 'items');
    await addUsageBatch(server.app.basalt.db, 'bob-over-cap', [
      { accountId: bob.id, day: dayOf(Date.now()), apiCalls: FREE_CALLS },
    ]);
    expect((await server.request('GET', '/api/table/items', { headers: bob.keyHeaders })).status).toBe(429);
    expect((await server.request('GET', '/api/billing/accounts', { headers: bob.tokenHeaders })).status).toBe(403);
    const promoted = await server.request('PATCH', `/api/admin/accounts/${bob.id}`, {
      headers: admin.tokenHeaders,
      json: { isAdmin: true },
    });
    expect(promoted.status).toBe(200);
    // Without waiting for the meter's next reading (METERING_REFRESH_MS) or the facts' expiry.
    expect((await server.request('GET', '/api/table/items', { headers: bob.keyHeaders })).status).toBe(200);
    expect((await server.request('GET', '/api/billing/accounts', { headers: bob.tokenHeaders })).status).toBe(200);
  });
});
