import type { Config } from '../../config.js';
import type { Db } from '../../db/database.js';
import type { Callers } from '../../http/caller.js';
import type { Call, Method, Route } from '../../http/routes/route.js';
import {
  cancelSubscription,
  createCheckoutSession,
  getSubscription,
  listInvoices,
  type StripeBilling,
} from './billing.service.js';
import { assignPlan, listBillingAccounts } from './billing-admin.service.js';
import { listNotifications, readNotifications } from './notifications.service.js';
import { handleStripeEvent, verifyStripeEvent } from './stripe-webhooks.service.js';
import { getUsage, getUsageHistory } from './usage.service.js';

// Billing, for a signed-in account (never an API key):
//   GET  /api/billing/plans                     the plans on sale (prices in cents, caps, extras)
//   GET  /api/billing/usage                     Usage of the current period
//   GET  /api/billing/usage/history             API calls and compute minutes per day of the period
//   GET  /api/billing/subscription              Subscription
//   GET  /api/billing/invoices                  Invoice[]
//   POST /api/billing/create-checkout-session   {planId} → {sessionUrl} or {clientSecret}
//   POST /api/billing/cancel-subscription       → Subscription (cancels at the period's end)
//   GET  /api/billing/accounts                  administrators: a page of accounts' plans and usage (?page&limit&search)
//   PUT  /api/billing/accounts/:id/plan         administrators: {planId} assigns a plan by hand
//   GET  /api/user/notifications, POST /api/user/notifications/read
// and, for Stripe only (signed, no session): POST /api/billing/webhook.

// Stripe's events are a few KB; anything much larger is not one.
const WEBHOOK_BODY_LIMIT = 512 * 1024;

/** BillingRouteDeps is what the billing routes use of the server. */
export interface BillingRouteDeps {
  db: Db;
  config: Pick<Config, 'billing' | 'siteUrl'>;
  stripe: StripeBilling | null;
  callers: Callers;
}

/** billingRoutes are the billing and notification routes and Stripe's webhook. */
export function billingRoutes(ctx: BillingRouteDeps): Route[] {
  const { db, config, stripe } = ctx;
  const plans = config.billing.plans;
  const route = (method: Method, url: string, handler: (call: Call) => Promise<unknown> | unknown): Route => ({
    method,
    url,
    family: 'console',
    admit: [ctx.callers.user],
    handler,
  });
  return [
    route('GET', '/api/billing/plans', () => ({ plans, stripe: stripe !== null })),
    route('GET', '/api/billing/usage', (call) => getUsage(db, plans, call.actor.accountId)),
    route('GET', '/api/billing/usage/history', (call) => getUsageHistory(db, call.actor.accountId)),
    route('GET', '/api/billing/subscription', (call) => getSubscription(db, call.actor)),
    route('GET', '/api/billing/invoices', (call) => listInvoices(db, call.actor)),
    route('POST', '/api/billing/create-checkout-session', (call) =>
      createCheckoutSession(db, call.actor, call.body, { stripe, plans, siteUrl: config.siteUrl }),
    ),
    route('POST', '/api/billing/cancel-subscription', (call) => cancelSubscription(db, call.actor, { stripe })),
    route('GET', '/api/billing/accounts', (call) => listBillingAccounts(db, call.actor, plans, call.query)),
    route('PUT', '/api/billing/accounts/:id/plan', async (call) => {
      return assignPlan(db, call.actor, call.params.id ?? '', call.body);
    }),
    route('GET', '/api/user/notifications', (call) => listNotifications(db, call.actor)),
    route('POST', '/api/user/notifications/read', async (call) => {
      await readNotifications(db, call.actor);
      return { success: true };
    }),
    {
      // Stripe signs the body exactly as sent: it is kept as bytes, not parsed.
      method: 'POST',
      url: '/api/billing/webhook',
      family: 'console',
      admit: [],
      body: 'raw',
      fastify: { bodyLimit: WEBHOOK_BODY_LIMIT },
      handler: async (call) => {
        const raw = Buffer.isBuffer(call.body) ? call.body : Buffer.alloc(0);
        const event = verifyStripeEvent(stripe, raw, call.headers['stripe-signature']);
        // verifyStripeEvent refuses every event when Stripe is off, so stripe is set here.
        const { outcome } = stripe ? await handleStripeEvent(db, stripe, event) : { outcome: 'ignored' };
        return { received: true, outcome };
      },
    },
  ];
}
