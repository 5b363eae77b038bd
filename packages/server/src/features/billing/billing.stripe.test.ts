import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../../testing/account.fixtures.js';
import { users } from '../../testing/auth.fixtures.js';
import { type KeyedUser, signUpWithKey } from '../../testing/public-api.fixtures.js';
import {
  type FakeStripe,
  STRIPE_TEST,
  sendStripeEvent,
  startFakeStripe,
  stripeBillingConfig,
  stripeEvent,
  subscriptionObject,
} from '../../testing/stripe.fixtures.js';
import { startTestServer, type TestServer, testDialects } from '../../testing/test-server.js';

const signer = new Stripe(STRIPE_TEST.secretKey);
const signed = (payload: string) =>
  signer.webhooks.generateTestHeaderString({ payload, secret: STRIPE_TEST.webhookSecret });

// The whole Stripe flow against the local double of Stripe's API: checkout → webhook → active → cancel → ends on
// → deleted; signatures, replays and out-of-order events; and every refusal of the billing calls.

describe.each(testDialects)('billing with Stripe (%s)', (dialect) => {
  let fake: FakeStripe;
  let server: TestServer;
  let alice: KeyedUser;
  let bob: KeyedUser;
  const now = Math.floor(Date.now() / 1000);

  beforeAll(async () => {
    fake = await startFakeStripe();
    server = await startTestServer(dialect, { authRateLimit: 1000, billing: stripeBillingConfig(fake) });
    alice = await signUpWithKey(server, users.alice);
    bob = await signUpWithKey(server, users.bob);
  }, 60_000);

  afterAll(async () => {
    await server?.close();
    await fake?.close();
  });

  const get = (path: string, user: KeyedUser = alice) => server.request('GET', path, { headers: user.tokenHeaders });
  const post = (path: string, json: unknown, user: KeyedUser = alice) =>
    server.request('POST', path, { headers: user.tokenHeaders, json });

  it('starts every account on the free plan without a subscription', async () => {
    expect((await get('/api/billing/subscription')).body).toEqual({
      status: null,
      plan: 'free',
      renewalDate: null,
      cancelAtPeriodEnd: false,
    });
    const usage = await get('/api/billing/usage');
    expect(usage.body).toMatchObject({
      maxApiCalls: 10000,
      maxStorageMb: 1024,
      maxComputeMinutes: 100,
      maxDatabaseConnections: 1,
      plan: 'free',
    });
    expect((await get('/api/billing/invoices')).body).toEqual([]);
    const plans = await get('/api/billing/plans');
    expect(plans.body.plans.map((p: { id: string; priceCents: number }) => [p.id, p.priceCents])).toEqual([
      ['free', 0],
      ['starter', 999],
      ['professional', 2999],
      ['enterprise', 9999],
    ]);
  });

  it.each([
    ['an unknown plan', { planId: 'platinum' }, 'planId must be one of free, starter, professional, enterprise'],
    ['no plan', {}, 'planId is required'],
    ['a plan of the wrong type', { planId: 7 }, 'planId must be one of free, starter, professional, enterprise'],
    ['a NUL in the plan', { planId: 'starter\u0000' }, /.+/],
    ['the free plan', { planId: 'free' }, 'The free plan cannot be chosen as a paid upgrade'],
  ])('refuses a checkout for %s with 400', async (_name, body, message) => {
    const before = fake.requests.length;
    const res = await post('/api/billing/create-checkout-session', body);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(message);
    expect(fake.requests.length).toBe(before);
  });

  it.each([
    ['no credentials', {}, 401],
    ['an API key', null, 403],
    ['a tampered token', { authorization: 'Bearer abc.def.ghi' }, 401],
  ])('refuses a checkout with %s', async (_name, headers, status) => {
    const res = await server.request('POST', '/api/billing/create-checkout-session', {
      headers: headers ?? alice.keyHeaders,
      json: { planId: 'starter' },
    });
    expect(res.status).toBe(status);
  });

  it('answers 502, not 500, when Stripe fails', async () => {
    fake.failNext(500);
    const res = await post('/api/billing/create-checkout-session', { planId: 'starter' }, bob);
    expect(res.status).toBe(502);
    expect(res.body.code).toBe('stripe_error');
  });

  it('runs checkout → active → cancel → ends on → deleted', async () => {
    const checkout = await post('/api/billing/create-checkout-session', { planId: 'starter' });
    expect(checkout.status).toBe(200);
    expect(checkout.body.sessionUrl).toMatch(/^https:\/\/checkout\.stripe\.test\/c\/pay\/cs_test_/);
    const customerCall = fake.requests.find((r) => r.path === '/v1/customers' && r.form.email === users.alice.email);
    expect(customerCall?.authorization).toBe(`Bearer ${STRIPE_TEST.secretKey}`);
    const sessionCall = fake.requests.findLast((r) => r.path === '/v1/checkout/sessions');
    expect(sessionCall?.form).toMatchObject({ mode: 'subscription', 'line_items[0][price]': 'price_starter' });
    const customer = sessionCall?.form.customer ?? '';
    expect(customer).toMatch(/^cus_/);

    const completed = stripeEvent('checkout.session.completed', {
      id: 'cs_1',
      object: 'checkout.session',
      customer,
      subscription: 'sub_alice',
      client_reference_id: alice.id,
    });
    expect((await sendStripeEvent(server, completed)).status).toBe(200);
    const created = stripeEvent(
      'customer.subscription.created',
      subscriptionObject({ id: 'sub_alice', customer, price: 'price_starter', status: 'active', start: now }),
      now,
    );
    expect((await sendStripeEvent(server, created)).body).toEqual({ received: true, outcome: 'handled' });
    const renewal = new Date((now + 30 * 86_400) * 1000).toISOString();
    expect((await get('/api/billing/subscription')).body).toEqual({
      status: 'active',
      plan: 'starter',
      renewalDate: renewal,
      cancelAtPeriodEnd: false,
    });
    expect((await get('/api/billing/usage')).body).toMatchObject({ plan: 'starter', maxApiCalls: 100000 });
    // Another account's subscription is untouched.
    expect((await get('/api/billing/subscription', bob)).body.plan).toBe('free');

    // The current plan is not an upgrade.
    const again = await post('/api/billing/create-checkout-session', { planId: 'starter' });
    expect(again.status).toBe(400);
    expect(again.body.message).toBe('This plan is already your current plan');

    const paid = stripeEvent('invoice.paid', {
      id: 'in_alice_1',
      object: 'invoice',
      customer,
      status: 'paid',
      amount_paid: 999,
      amount_due: 999,
      currency: 'usd',
      invoice_pdf: 'https://pay.stripe.test/invoice/in_alice_1/pdf',
      created: now,
    });
    expect((await sendStripeEvent(server, paid)).status).toBe(200);
    // A finalized event older than the paid one arrives late: the invoice stays paid.
    const finalized = stripeEvent(
      'invoice.finalized',
      { id: 'in_alice_1', object: 'invoice', customer, status: 'open', amount_paid: 0, amount_due: 999, created: now },
      now - 60,
    );
    expect((await sendStripeEvent(server, finalized)).status).toBe(200);
    expect((await get('/api/billing/invoices')).body).toEqual([
      {
        id: 'in_alice_1',
        date: new Date(now * 1000).toISOString(),
        amount: 999,
        status: 'paid',
        pdfUrl: 'https://pay.stripe.test/invoice/in_alice_1/pdf',
      },
    ]);
    expect((await get('/api/billing/invoices', bob)).body).toEqual([]);

    const canceled = await post('/api/billing/cancel-subscription', {});
    expect(canceled.status).toBe(200);
    expect(canceled.body).toMatchObject({ status: 'active', cancelAtPeriodEnd: true, renewalDate: renewal });
    expect(fake.requests.findLast((r) => r.path === '/v1/subscriptions/sub_alice')?.form).toEqual({
      cancel_at_period_end: 'true',
    });
    const twice = await post('/api/billing/cancel-subscription', {});
    expect(twice.status).toBe(400);
    expect(twice.body.code).toBe('already_canceled');

    const updated = stripeEvent(
      'customer.subscription.updated',
      subscriptionObject({
        id: 'sub_alice',
        customer,
        price: 'price_starter',
        status: 'active',
        start: now,
        cancelAtPeriodEnd: true,
      }),
      now + 10,
    );
    expect((await sendStripeEvent(server, updated)).body.outcome).toBe('handled');
    // The created event, replayed, and an older update delivered late change nothing.
    expect((await sendStripeEvent(server, created)).body.outcome).toBe('replayed');
    const late = stripeEvent(
      'customer.subscription.updated',
      subscriptionObject({ id: 'sub_alice', customer, price: 'price_professional', status: 'active', start: now }),
      now + 5,
    );
    expect((await sendStripeEvent(server, late)).body.outcome).toBe('stale');
    expect((await get('/api/billing/subscription')).body).toEqual({
      status: 'active',
      plan: 'starter',
      renewalDate: renewal,
      cancelAtPeriodEnd: true,
    });

    const deleted = stripeEvent(
      'customer.subscription.deleted',
      subscriptionObject({
        id: 'sub_alice',
        customer,
        price: 'price_starter',
        status: 'canceled',
        start: now,
        cancelAtPeriodEnd: true,
      }),
      now + 20,
    );
    expect((await sendStripeEvent(server, deleted)).body.outcome).toBe('handled');
    expect((await get('/api/billing/subscription')).body).toMatchObject({ status: 'canceled', plan: 'free' });
    expect((await get('/api/billing/usage')).body).toMatchObject({ plan: 'free', maxApiCalls: 10000 });
    const noMore = await post('/api/billing/cancel-subscription', {});
    expect(noMore.status).toBe(400);
    expect(noMore.body.code).toBe('no_subscription');
  });

  it.each([
    ['a missing signature', null],
    ['a wrong signature', 't=1,v1=0000'],
    ['a signature made with another secret', 'other'],
  ])('refuses a webhook with %s: 400, nothing changed', async (_name, signature) => {
    const event = stripeEvent(
      'customer.subscription.created',
      subscriptionObject({ id: 'sub_bob', customer: 'cus_x', price: 'price_enterprise', status: 'active', start: now }),
    );
    const forged = signature === 'other' ? stripeEvent('x', {}, now, 'whsec_other').signature : signature;
    const res = await sendStripeEvent(server, event, forged);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_signature');
    // A body changed after signing does not pass either.
    const tampered = await server.request('POST', '/api/billing/webhook', {
      headers: { 'content-type': 'application/json', 'stripe-signature': event.signature },
      body: event.payload.replace('price_enterprise', 'price_starter'),
    });
    expect(tampered.status).toBe(400);
    expect((await get('/api/billing/subscription', bob)).body.plan).toBe('free');
  });

  it('refuses a signed body that is not JSON, and ignores unknown event types', async () => {
    const res = await server.request('POST', '/api/billing/webhook', {
      headers: { 'content-type': 'text/plain', 'stripe-signature': 'whatever' },
      body: 'not json\u0000',
    });
    expect(res.status).toBe(400);
    const other = stripeEvent('customer.created', { id: 'cus_z', object: 'customer' });
    expect((await sendStripeEvent(server, other)).body).toEqual({ received: true, outcome: 'ignored' });
  });

  it('refuses a signed event that is not well formed, and survives odd fields without a 500', async () => {
    const bare = stripeEvent('invoice.paid', {});
    const withoutData = bare.payload.replace(/,"data":\{"object":\{\}\}/, '');
    const res = await server.request('POST', '/api/billing/webhook', {
      headers: { 'content-type': 'application/json', 'stripe-signature': signed(withoutData) },
      body: withoutData,
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_event');
    const odd = stripeEvent('invoice.paid', {
      id: 'in_odd',
      object: 'invoice',
      customer: 'cus_nobody',
      amount_paid: 'lots',
      invoice_pdf: 'javascript:alert(1)',
      status: 7,
    });
    expect((await sendStripeEvent(server, odd)).body).toEqual({ received: true, outcome: 'ignored' });
    const oddSubscription = stripeEvent('customer.subscription.updated', {
      id: 42,
      object: 'subscription',
      customer: { id: 7 },
      items: 'none',
    });
    expect((await sendStripeEvent(server, oddSubscription)).status).toBe(200);
  });

  it('answers a clientSecret in embedded mode', async () => {
    const embedded = await startTestServer(dialect, {
      authRateLimit: 1000,
      billing: stripeBillingConfig(fake, {}, 'embedded'),
    });
    try {
      const carol = await signUpWithKey(embedded, users.carol);
      const res = await embedded.request('POST', '/api/billing/create-checkout-session', {
        headers: bearer(carol.accessToken),
        json: { planId: 'professional' },
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ clientSecret: expect.stringMatching(/^cs_test_\w+_secret_fake$/) });
      expect(fake.requests.findLast((r) => r.path === '/v1/checkout/sessions')?.form.ui_mode).toBe('embedded_page');
    } finally {
      await embedded.close();
    }
  });
});
