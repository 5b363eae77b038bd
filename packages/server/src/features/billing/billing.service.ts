import type { CheckoutResult, Invoice, Plan, PlanId, Subscription } from '@basalt/shared';
import { checkoutInputSchema } from '@basalt/shared';
import type { FastifyBaseLogger } from 'fastify';
import Stripe from 'stripe';
import type { StripeConfig } from '../../config-billing.js';
import type { Db } from '../../db/database.js';
import { ApiError, badRequest, notFound } from '../../http/errors.js';
import { parseInput } from '../../http/validation.js';
import type { Actor } from '../../lib/actor/actor.js';
import { findBillingRow, listInvoiceRows, updateSubscriptionFields } from './billing.store.js';
import { effectivePlanId } from './billing-plans.js';

// An account's subscription and invoices, checkout and cancellation. Stripe is the source of truth when it is
// configured: checkout and cancellation ask Stripe, and its webhook (stripe-webhooks.service.ts) writes what
// happened back. Without Stripe, administrators assign plans (billing-admin.service.ts).

/** StripeBilling is Stripe's client with the operator's settings; null when billing by Stripe is off. */
export interface StripeBilling {
  client: Stripe;
  config: StripeConfig;
}

const INVOICES_SHOWN = 100;

async function billingRowOf(db: Db, actor: Actor) {
  const row = await findBillingRow(db, actor.accountId);
  if (!row) throw notFound('Account not found', 'account_not_found');
  return row;
}

/** getSubscription is the account's plan and where its subscription stands. */
export async function getSubscription(db: Db, actor: Actor): Promise<Subscription> {
  const row = await billingRowOf(db, actor);
  return {
    status: row.subscription_status,
    plan: effectivePlanId(row),
    renewalDate: row.subscription_renewal_date,
    cancelAtPeriodEnd: row.cancel_at_period_end === 1,
  };
}

/** listInvoices is the account's invoices, newest first; amounts in cents. */
export async function listInvoices(db: Db, actor: Actor): Promise<Invoice[]> {
  const rows = await listInvoiceRows(db, actor.accountId, INVOICES_SHOWN);
  return rows.map((r) => ({
    id: r.stripe_invoice_id,
    date: r.invoice_date,
    amount: Number(r.amount),
    status: r.status,
    pdfUrl: r.pdf_url,
  }));
}

// The administrator is the one who assigns plans here: telling them to ask themselves would leave them stuck.
const NOT_CONFIGURED = (actor: Actor) =>
  new ApiError(
    400,
    'billing_not_configured',
    actor.admin
      ? 'Billing is not configured on this server (no STRIPE_SECRET_KEY): as its administrator, assign plans in Billing → Accounts'
      : 'Billing is not configured on this server: ask its administrator to assign you a plan',
  );

// A failure of Stripe's API (down, refusing the key or a price) is a 502 the account can report, never a 500.
async function askStripe<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof Stripe.errors.StripeError) {
      throw new ApiError(502, 'stripe_error', `Stripe refused the request: ${error.message}`);
    }
    throw error;
  }
}

/** createCheckoutSession starts a Stripe Checkout for a paid plan: a page to go to, or a secret for Stripe.js. */
export async function createCheckoutSession(
  db: Db,
  actor: Actor,
  input: unknown,
  options: { stripe: StripeBilling | null; plans: Plan[]; siteUrl: string },
): Promise<CheckoutResult> {
  const { planId } = parseInput(checkoutInputSchema, input);
  const row = await billingRowOf(db, actor);
  const current = effectivePlanId(row);
  if (planId === 'free') {
    throw badRequest('invalid_plan', 'The free plan cannot be chosen as a paid upgrade');
  }
  if (planId === current) throw badRequest('current_plan', 'This plan is already your current plan');
  const { stripe } = options;
  if (!stripe) throw NOT_CONFIGURED(actor);
  const price = stripe.config.prices[planId as Exclude<PlanId, 'free'>];
  if (!price) {
    throw new ApiError(400, 'plan_not_for_sale', `The ${planId} plan has no Stripe price on this server`);
  }
  let customerId = row.stripe_customer_id;
  if (!customerId) {
    const customer = await askStripe(() =>
      stripe.client.customers.create({ email: row.email, metadata: { accountId: row.id } }),
    );
    customerId = customer.id;
    await updateSubscriptionFields(db, row.id, { stripe_customer_id: customerId });
  }
  const billingUrl = `${options.siteUrl}/billing`;
  const embedded = stripe.config.checkoutMode === 'embedded';
  const session = await askStripe(() =>
    stripe.client.checkout.sessions.create({
      mode: 'subscription',
      customer: customerId,
      client_reference_id: row.id,
      line_items: [{ price, quantity: 1 }],
      metadata: { accountId: row.id, planId },
      subscription_data: { metadata: { accountId: row.id, planId } },
      ...(embedded
        ? { ui_mode: 'embedded_page', return_url: `${billingUrl}?checkout=done` }
        : { success_url: `${billingUrl}?checkout=done`, cancel_url: `${billingUrl}?checkout=canceled` }),
    }),
  );
  if (embedded && session.client_secret) return { clientSecret: session.client_secret };
  if (!embedded && session.url) return { sessionUrl: session.url };
  throw new ApiError(502, 'stripe_no_session', 'Stripe did not return a checkout session');
}

/** cancelSubscription asks Stripe to end the subscription at the end of its period. */
export async function cancelSubscription(
  db: Db,
  actor: Actor,
  options: { stripe: StripeBilling | null },
): Promise<Subscription> {
  const row = await billingRowOf(db, actor);
  const live = row.subscription_status === 'active' || row.subscription_status === 'trialing';
  if (!row.stripe_subscription_id || !live) {
    throw badRequest('no_subscription', 'There is no active subscription to cancel');
  }
  if (row.cancel_at_period_end === 1) {
    throw badRequest('already_canceled', 'The subscription is already set to end at the end of its period');
  }
  if (!options.stripe) throw NOT_CONFIGURED(actor);
  const { client } = options.stripe;
  const subscriptionId = row.stripe_subscription_id;
  await askStripe(() => client.subscriptions.update(subscriptionId, { cancel_at_period_end: true }));
  // Stripe's webhook confirms it; the account sees it at once.
  await updateSubscriptionFields(db, row.id, { cancel_at_period_end: 1 });
  return getSubscription(db, actor);
}

// Subscriptions in these states are over already: there is nothing left to cancel.
const ENDED_STATUSES = new Set(['canceled', 'incomplete_expired']);

/**
 * cancelSubscriptionForDeletion ends an account's Stripe subscription at once, before the account is deleted, so
 * that nobody is billed for an account that is gone. A failure of Stripe is a 502 and the account must stay (the
 * caller deletes nothing); a subscription Stripe no longer knows is taken as ended. Without Stripe configured, an
 * account's leftover subscription cannot be reached: it is logged, by id, for the operator, and the deletion goes on.
 */
export async function cancelSubscriptionForDeletion(
  db: Db,
  accountId: string,
  options: { stripe: StripeBilling | null; log: FastifyBaseLogger },
): Promise<void> {
  const row = await findBillingRow(db, accountId);
  const subscriptionId = row?.stripe_subscription_id;
  if (!row || !subscriptionId || row.subscription_status === null || ENDED_STATUSES.has(row.subscription_status)) {
    return;
  }
  if (!options.stripe) {
    options.log.warn(
      { accountId, subscriptionId },
      'deleting an account whose Stripe subscription Basalt cannot cancel (Stripe is not configured): cancel it in Stripe',
    );
    return;
  }
  const { client } = options.stripe;
  try {
    await client.subscriptions.cancel(subscriptionId);
  } catch (error) {
    if (!(error instanceof Stripe.errors.StripeError)) throw error;
    if (error.code !== 'resource_missing') {
      throw new ApiError(
        502,
        'stripe_error',
        `Stripe could not cancel the account's subscription, so the account was not deleted: ${error.message}. Try again in a moment`,
      );
    }
  }
  // Known at once, so that a deletion tried again after a later failure does not ask Stripe twice.
  await updateSubscriptionFields(db, accountId, { subscription_status: 'canceled', cancel_at_period_end: 0 });
}
