import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.js';
import { requireUser } from '../../http/legacy-principal.js';
import { cancelSubscription, createCheckoutSession, getSubscription, listInvoices } from './billing.service.js';
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

/** billingRoutes registers the billing and notification endpoints and Stripe's webhook. */
export async function billingRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const { db, config, usage, stripe } = ctx;
  const plans = config.billing.plans;

  app.get('/api/billing/plans', async (request) => {
    requireUser(request);
    return { plans, stripe: stripe !== null };
  });
  app.get('/api/billing/usage', async (request) => getUsage(db, plans, requireUser(request).accountId));
  app.get('/api/billing/usage/history', async (request) => getUsageHistory(db, requireUser(request).accountId));
  app.get('/api/billing/subscription', async (request) => getSubscription(db, requireUser(request)));
  app.get('/api/billing/invoices', async (request) => listInvoices(db, requireUser(request)));

  app.post('/api/billing/create-checkout-session', async (request) =>
    createCheckoutSession(db, requireUser(request), request.body, { stripe, plans, siteUrl: config.siteUrl }),
  );
  app.post('/api/billing/cancel-subscription', async (request) =>
    cancelSubscription(db, requireUser(request), { stripe }),
  );

  app.get('/api/billing/accounts', async (request) =>
    listBillingAccounts(db, requireUser(request), plans, request.query),
  );
  app.put('/api/billing/accounts/:id/plan', async (request) => {
    const { id } = request.params as { id: string };
    const subscription = await assignPlan(db, requireUser(request), id, request.body);
    usage?.forget(id);
    return subscription;
  });

  app.get('/api/user/notifications', async (request) => listNotifications(db, requireUser(request)));
  app.post('/api/user/notifications/read', async (request) => {
    await readNotifications(db, requireUser(request));
    return { success: true };
  });

  // The signature covers the body exactly as sent: it is kept as bytes here, not parsed.
  await app.register(async (webhook) => {
    webhook.removeAllContentTypeParsers();
    webhook.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT }, (_request, body, done) =>
      done(null, body),
    );
    webhook.post('/api/billing/webhook', async (request) => {
      const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const event = verifyStripeEvent(stripe, raw, request.headers['stripe-signature']);
      // verifyStripeEvent refuses every event when Stripe is off, so stripe is set here.
      const { outcome, accountId } = stripe
        ? await handleStripeEvent(db, stripe, event)
        : { outcome: 'ignored', accountId: null };
      if (accountId) usage?.forget(accountId);
      return { received: true, outcome };
    });
  });
}
