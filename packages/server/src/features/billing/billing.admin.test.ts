import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appKeyHeaders, signUpEndUser, startDeveloper } from '../../testing/apps.fixtures.js';
import { users } from '../../testing/auth.fixtures.js';
import { type KeyedUser, signUpWithKey } from '../../testing/public-api.fixtures.js';
import { startTestServer, type TestServer, testDialects } from '../../testing/test-server.js';

// Billing without Stripe: checkout says so, the instance administrator assigns plans and sees every account, and
// the billing calls refuse whoever is not a signed-in account.

describe.each(testDialects)('billing without Stripe (%s)', (dialect) => {
  let server: TestServer;
  let admin: KeyedUser;
  let alice: KeyedUser;

  beforeAll(async () => {
    server = await startTestServer(dialect, { authRateLimit: 1000 });
    // The first account is the instance's administrator.
    admin = await signUpWithKey(server, users.dave);
    alice = await signUpWithKey(server, users.alice);
  }, 60_000);

  afterAll(async () => {
    await server?.close();
  });

  it('says checkout is not configured and refuses webhooks', async () => {
    const res = await server.request('POST', '/api/billing/create-checkout-session', {
      headers: alice.tokenHeaders,
      json: { planId: 'starter' },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 'billing_not_configured',
      message: 'Billing is not configured on this server: ask its administrator to assign you a plan',
    });
    // The administrator is told where to assign plans, not to ask themselves.
    const asAdmin = await server.request('POST', '/api/billing/create-checkout-session', {
      headers: admin.tokenHeaders,
      json: { planId: 'starter' },
    });
    expect(asAdmin.body).toMatchObject({
      code: 'billing_not_configured',
      message: expect.stringContaining('as its administrator, assign plans in Billing → Accounts'),
    });
    const hook = await server.request('POST', '/api/billing/webhook', {
      headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=00' },
      body: '{}',
    });
    expect(hook.status).toBe(400);
  });

  it('lets the administrator assign plans and see every account', async () => {
    const assign = (id: string, json: unknown, user: KeyedUser = admin) =>
      server.request('PUT', `/api/billing/accounts/${id}/plan`, { headers: user.tokenHeaders, json });
    expect((await assign(alice.id, { planId: 'professional' }, alice)).status).toBe(403);
    expect((await server.request('GET', '/api/billing/accounts', { headers: alice.tokenHeaders })).status).toBe(403);
    expect((await assign('no-such-account', { planId: 'starter' })).status).toBe(404);
    expect((await assign(alice.id, { planId: 'gold' })).status).toBe(400);
    expect((await assign(alice.id, {})).status).toBe(400);
    expect((await assign(alice.id, { planId: 'professional' })).body).toEqual({
      status: 'active',
      plan: 'professional',
      renewalDate: null,
      cancelAtPeriodEnd: false,
    });
    const usage = await server.request('GET', '/api/billing/usage', { headers: alice.tokenHeaders });
    expect(usage.body).toMatchObject({ plan: 'professional', maxApiCalls: 1_000_000, maxDatabaseConnections: 10 });
    // A plan assigned by hand is changed by hand: there is no Stripe subscription to cancel.
    const cancel = await server.request('POST', '/api/billing/cancel-subscription', {
      headers: alice.tokenHeaders,
      json: {},
    });
    expect(cancel.status).toBe(400);
    const list = await server.request('GET', '/api/billing/accounts', { headers: admin.tokenHeaders });
    expect(list.status).toBe(200);
    expect(list.body.data.map((a: { email: string; plan: string }) => [a.email, a.plan])).toEqual([
      [users.dave.email, 'free'],
      [users.alice.email, 'professional'],
    ]);
    expect((await assign(alice.id, { planId: 'free' })).body.plan).toBe('free');
  });

  it('refuses an app end user and an app key, and an oversized webhook', async () => {
    const developer = await startDeveloper(server, users.erin);
    const endUser = await signUpEndUser(server, developer, 'shopper@example.com');
    for (const headers of [endUser.headers, appKeyHeaders(developer.app.serviceKey)]) {
      expect((await server.request('GET', '/api/billing/usage', { headers })).status).toBe(401);
      const checkout = await server.request('POST', '/api/billing/create-checkout-session', {
        headers,
        json: { planId: 'starter' },
      });
      expect(checkout.status).toBe(401);
    }
    const huge = await server.request('POST', '/api/billing/webhook', {
      headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=00' },
      body: `{"pad":"${'x'.repeat(600 * 1024)}"}`,
    });
    expect(huge.status).toBe(413);
  });

  it.each([
    ['usage', '/api/billing/usage'],
    ['subscription', '/api/billing/subscription'],
    ['invoices', '/api/billing/invoices'],
    ['history', '/api/billing/usage/history'],
  ])('refuses the %s to API keys and to nobody', async (_name, path) => {
    expect((await server.request('GET', path)).status).toBe(401);
    expect((await server.request('GET', path, { headers: alice.keyHeaders })).status).toBe(403);
  });
});
