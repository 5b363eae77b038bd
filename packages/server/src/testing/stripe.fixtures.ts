import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_PLANS } from '@basalt/shared';
import Stripe from 'stripe';
import type { BillingConfig } from '../config-billing.js';
import type { TestServer } from './test-server.js';

// A local double of the few Stripe API calls Basalt makes (customers, Checkout sessions, subscription updates and
// cancellations),
// which the official SDK is pointed at (STRIPE_API_URL → its host, port and protocol), and webhook events signed
// by the SDK's own test helper. It is the one fake of the test suites: Stripe's API cannot be reached from tests.

/** STRIPE_TEST = the keys and prices the suites configure. */
export const STRIPE_TEST = {
  secretKey: 'sk_test_basalt',
  webhookSecret: 'whsec_basalt_test',
  prices: { starter: 'price_starter', professional: 'price_professional', enterprise: 'price_enterprise' },
} as const;

/** FakeStripeRequest is one call the fake received: method, path and the form fields. */
export interface FakeStripeRequest {
  method: string;
  path: string;
  form: Record<string, string>;
  authorization: string | undefined;
}

/** FakeStripe is the running double. */
export interface FakeStripe {
  url: string;
  requests: FakeStripeRequest[];
  /** failNext makes the next call answer Stripe's error with this HTTP status (and error code). */
  failNext(status: number, code?: string): void;
  close(): Promise<void>;
}

/** startFakeStripe starts the double on a free port. */
export async function startFakeStripe(): Promise<FakeStripe> {
  const requests: FakeStripeRequest[] = [];
  let next = 0;
  let failure: { status: number; code: string | undefined } | null = null;
  const subscriptions = new Map<string, Record<string, unknown>>();
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    req.on('end', () => {
      const form = Object.fromEntries(new URLSearchParams(body));
      const path = (req.url ?? '').split('?')[0] ?? '';
      requests.push({ method: req.method ?? '', path, form, authorization: req.headers.authorization });
      const send = (status: number, json: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${++next}` });
        res.end(JSON.stringify(json));
      };
      if (failure !== null) {
        const { status, code } = failure;
        failure = null;
        const type = status < 500 ? 'invalid_request_error' : 'api_error';
        return send(status, { error: { type, code, message: 'The fake was told to fail' } });
      }
      if (req.method === 'POST' && path === '/v1/customers') {
        return send(200, { id: `cus_${++next}`, object: 'customer', email: form.email ?? null });
      }
      if (req.method === 'POST' && path === '/v1/checkout/sessions') {
        const id = `cs_test_${++next}`;
        const embedded = form.ui_mode === 'embedded_page';
        return send(200, {
          id,
          object: 'checkout.session',
          customer: form.customer ?? null,
          client_reference_id: form.client_reference_id ?? null,
          mode: form.mode,
          url: embedded ? null : `https://checkout.stripe.test/c/pay/${id}`,
          client_secret: embedded ? `${id}_secret_fake` : null,
        });
      }
      const sub = /^\/v1\/subscriptions\/([\w-]+)$/.exec(path);
      if (req.method === 'POST' && sub?.[1]) {
        const id = sub[1];
        const current = subscriptions.get(id) ?? { id, object: 'subscription', status: 'active' };
        const updated = { ...current, cancel_at_period_end: form.cancel_at_period_end === 'true' };
        subscriptions.set(id, updated);
        return send(200, updated);
      }
      if (req.method === 'DELETE' && sub?.[1]) {
        const id = sub[1];
        const canceled = { ...(subscriptions.get(id) ?? { id, object: 'subscription' }), status: 'canceled' };
        subscriptions.set(id, canceled);
        return send(200, canceled);
      }
      send(404, {
        error: { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method} ${path})` },
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    failNext(status, code) {
      failure = { status, code };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** stripeBillingConfig is a billing configuration that sells through the fake. */
export function stripeBillingConfig(
  fake: FakeStripe,
  overrides: Partial<BillingConfig> = {},
  checkoutMode: 'hosted' | 'embedded' = 'hosted',
): BillingConfig {
  return {
    metering: true,
    meteringRefreshMs: 200,
    quotas: 'auto',
    plans: DEFAULT_PLANS,
    stripe: {
      secretKey: STRIPE_TEST.secretKey,
      webhookSecret: STRIPE_TEST.webhookSecret,
      checkoutMode,
      prices: { ...STRIPE_TEST.prices },
      apiUrl: fake.url,
    },
    ...overrides,
  };
}

const signer = new Stripe(STRIPE_TEST.secretKey);
let events = 0;

/** StripeTestEvent is an event as Stripe would send it, with the body and its signature header. */
export interface StripeTestEvent {
  id: string;
  payload: string;
  signature: string;
}

/** stripeEvent builds an event of `type` about `object`, created at `created` (Unix seconds), signed. */
export function stripeEvent(
  type: string,
  object: Record<string, unknown>,
  created = Math.floor(Date.now() / 1000),
  secret: string = STRIPE_TEST.webhookSecret,
): StripeTestEvent {
  const id = `evt_test_${++events}_${Math.random().toString(36).slice(2, 8)}`;
  const payload = JSON.stringify({
    id,
    object: 'event',
    api_version: '2026-10-28.endive',
    created,
    type,
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    data: { object },
  });
  return { id, payload, signature: signer.webhooks.generateTestHeaderString({ payload, secret }) };
}

/** sendStripeEvent posts an event to the server's webhook as Stripe does. */
export function sendStripeEvent(
  server: TestServer,
  event: StripeTestEvent,
  signature: string | null = event.signature,
) {
  return server.request('POST', '/api/billing/webhook', {
    headers: {
      'content-type': 'application/json; charset=utf-8',
      ...(signature ? { 'stripe-signature': signature } : {}),
    },
    body: event.payload,
  });
}

/** subscriptionObject is a Stripe subscription on a price, in a period of 30 days from `start` (Unix seconds). */
export function subscriptionObject(options: {
  id: string;
  customer: string;
  price: string;
  status: string;
  start: number;
  cancelAtPeriodEnd?: boolean;
}): Record<string, unknown> {
  const end = options.start + 30 * 86_400;
  return {
    id: options.id,
    object: 'subscription',
    customer: options.customer,
    status: options.status,
    cancel_at_period_end: options.cancelAtPeriodEnd ?? false,
    metadata: {},
    items: {
      object: 'list',
      data: [
        {
          id: `si_${options.id}`,
          object: 'subscription_item',
          price: { id: options.price, object: 'price' },
          current_period_start: options.start,
          current_period_end: end,
        },
      ],
    },
  };
}
