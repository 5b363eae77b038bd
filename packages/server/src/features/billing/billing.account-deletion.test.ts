import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../testing/auth.fixtures.js';
import { type KeyedUser, signUpWithKey } from '../../testing/public-api.fixtures.js';
import {
  type FakeStripe,
  sendStripeEvent,
  startFakeStripe,
  stripeBillingConfig,
  stripeEvent,
  subscriptionObject,
} from '../../testing/stripe.fixtures.js';
import { startTestServer, type TestServer, testDialects } from '../../testing/test-server.js';

// Deleting an account ends its Stripe subscription at once, first: when Stripe fails, nothing is deleted and the
// person is told to try again; a subscription Stripe no longer knows does not hold the deletion up.

describe.each(testDialects)('account deletion with a Stripe subscription (%s)', (dialect) => {
  let fake: FakeStripe;
  let server: TestServer;
  let admin: KeyedUser;
  const now = Math.floor(Date.now() / 1000);

  beforeAll(async () => {
    fake = await startFakeStripe();
    server = await startTestServer(dialect, { authRateLimit: 1000, billing: stripeBillingConfig(fake) });
    admin = await signUpWithKey(server, users.dave);
  }, 60_000);

  afterAll(async () => {
    await server?.close();
    await fake?.close();
  });

  async function subscribe(user: KeyedUser, subscription: string) {
    const customer = `cus_${user.username}`;
    const completed = stripeEvent('checkout.session.completed', {
      id: `cs_${user.username}`,
      object: 'checkout.session',
      customer,
      subscription,
      client_reference_id: user.id,
    });
    expect((await sendStripeEvent(server, completed)).status).toBe(200);
    const created = stripeEvent(
      'customer.subscription.created',
      subscriptionObject({ id: subscription, customer, price: 'price_starter', status: 'active', start: now }),
      now,
    );
    expect((await sendStripeEvent(server, created)).body).toMatchObject({ outcome: 'handled' });
  }

  const deleteSelf = (user: KeyedUser) =>
    server.request('DELETE', '/api/user', { headers: user.tokenHeaders, json: { confirm: user.username } });
  const cancellations = (subscription: string) =>
    fake.requests.filter((r) => r.method === 'DELETE' && r.path === `/v1/subscriptions/${subscription}`);
  const exists = async (user: KeyedUser) =>
    Boolean(
      await server.app.basalt.db.kysely
        .selectFrom('accounts')
        .select('id')
        .where('id', '=', user.id)
        .executeTakeFirst(),
    );

  it('keeps the account when Stripe fails, and cancels then deletes when tried again', async () => {
    const alice = await signUpWithKey(server, users.alice);
    await subscribe(alice, 'sub_alice');

    fake.failNext(500);
    const refused = await deleteSelf(alice);
    expect(refused.status).toBe(502);
    expect(refused.body).toMatchObject({ code: 'stripe_error' });
    expect(refused.body.message).toMatch(
      /^Stripe could not cancel the account's subscription, so the account was not deleted: .+\. Try again in a moment$/,
    );
    expect(await exists(alice)).toBe(true);
    expect(
      (await server.request('GET', '/api/billing/subscription', { headers: alice.tokenHeaders })).body,
    ).toMatchObject({ status: 'active', plan: 'starter' });

    const deleted = await deleteSelf(alice);
    expect(deleted.status).toBe(200);
    expect(cancellations('sub_alice')).toHaveLength(2);
    expect(cancellations('sub_alice')[1]?.authorization).toBe('Bearer sk_test_basalt');
    expect(await exists(alice)).toBe(false);
  });

  it('deletes an account whose subscription Stripe no longer knows', async () => {
    const bob = await signUpWithKey(server, users.bob);
    await subscribe(bob, 'sub_bob');
    fake.failNext(404, 'resource_missing');
    expect((await deleteSelf(bob)).status).toBe(200);
    expect(await exists(bob)).toBe(false);
  });

  it('asks Stripe nothing for an account without a live subscription', async () => {
    const carol = await signUpWithKey(server, users.carol);
    const before = fake.requests.length;
    expect((await deleteSelf(carol)).status).toBe(200);
    expect(fake.requests.length).toBe(before);
  });

  it('cancels the subscription when an administrator deletes the account', async () => {
    const erin = await signUpWithKey(server, users.erin);
    await subscribe(erin, 'sub_erin');
    const res = await server.request('DELETE', `/api/admin/accounts/${erin.id}`, { headers: admin.tokenHeaders });
    expect(res.status).toBe(200);
    expect(cancellations('sub_erin')).toHaveLength(1);
    expect(await exists(erin)).toBe(false);
  });
});
