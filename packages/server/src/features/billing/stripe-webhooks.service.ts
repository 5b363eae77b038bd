import type { PlanId } from '@basalt/shared';
import { PLAN_IDS } from '@basalt/shared';
import Stripe from 'stripe';
import type { Db } from '../../db/database.js';
import { badRequest } from '../../http/errors.js';
import type { StripeBilling } from './billing.service.js';
import {
  claimStripeEvent,
  findAccountIdByCustomer,
  findBillingRow,
  updateSubscriptionFields,
  upsertInvoice,
} from './billing.store.js';

// Stripe's webhook: the event is verified against the raw body with the endpoint's secret, then handled in one
// transaction with the record of its id, so a replayed event (Stripe retries, or anyone resending a captured one)
// changes nothing. Events can arrive out of order: each subscription or invoice keeps the `created` time of the
// event it was last set from, and an older event does not overwrite it.

/** WebhookOutcome says what became of an event and whose account it changed (Stripe only needs the 200). */
export interface WebhookOutcome {
  outcome: 'handled' | 'replayed' | 'stale' | 'ignored';
  accountId: string | null;
}

const IGNORED: WebhookOutcome = { outcome: 'ignored', accountId: null };
const STALE: WebhookOutcome = { outcome: 'stale', accountId: null };
const handled = (accountId: string): WebhookOutcome => ({ outcome: 'handled', accountId });

const SIGNATURE_REFUSED = () =>
  badRequest('invalid_signature', 'The Stripe-Signature header is missing or does not match this request');

/** verifyStripeEvent checks the signature of a webhook request and parses its event; 400 when it does not hold. */
export function verifyStripeEvent(stripe: StripeBilling | null, rawBody: Buffer, signature: unknown): Stripe.Event {
  if (!stripe?.config.webhookSecret) {
    throw badRequest('webhook_not_configured', 'Stripe webhooks are not configured on this server');
  }
  if (typeof signature !== 'string' || signature.length === 0 || signature.length > 4096) throw SIGNATURE_REFUSED();
  let event: Stripe.Event;
  try {
    event = stripe.client.webhooks.constructEvent(rawBody, signature, stripe.config.webhookSecret);
  } catch (error) {
    if (error instanceof Stripe.errors.StripeSignatureVerificationError) throw SIGNATURE_REFUSED();
    throw NOT_AN_EVENT();
  }
  // Signed is not well formed: an event without these would fail half-way through its handling.
  const { id, type, created, data } = event as Partial<Stripe.Event>;
  const object: unknown = data?.object;
  if (
    typeof id !== 'string' ||
    id.length === 0 ||
    id.length > 255 ||
    typeof type !== 'string' ||
    typeof created !== 'number' ||
    !Number.isFinite(created) ||
    typeof object !== 'object' ||
    object === null
  ) {
    throw NOT_AN_EVENT();
  }
  return event;
}

const NOT_AN_EVENT = () => badRequest('invalid_event', 'The webhook body is not a Stripe event');

const text = (value: unknown): string | null => (typeof value === 'string' && value.length > 0 ? value : null);
// The invoice's PDF is a link the console opens: only a web address, never another scheme.
const webUrl = (value: unknown): string | null =>
  typeof value === 'string' && value.length <= 2048 && /^https?:\/\//i.test(value) ? value : null;
const cents = (value: unknown): number => (typeof value === 'number' && Number.isSafeInteger(value) ? value : 0);

const idOf = (value: string | { id: string } | null | undefined): string | null =>
  typeof value === 'string' ? value : (value?.id ?? null);

const iso = (seconds: number | null | undefined) =>
  typeof seconds === 'number' && Number.isFinite(seconds) ? new Date(seconds * 1000).toISOString() : null;

/** handleStripeEvent applies a verified event once. */
export async function handleStripeEvent(db: Db, stripe: StripeBilling, event: Stripe.Event): Promise<WebhookOutcome> {
  return db.transaction(async (scope) => {
    if (!(await claimStripeEvent(scope, event.id, event.type))) return { outcome: 'replayed', accountId: null };
    const outcome = await handledEvent(scope, stripe, event);
    // Every node's meter forgets the account's caps once this commits (usage-meter.ts).
    if (outcome.accountId) scope.publish('plan.changed', { accountId: outcome.accountId });
    return outcome;
  });
}

async function handledEvent(scope: Db, stripe: StripeBilling, event: Stripe.Event): Promise<WebhookOutcome> {
  switch (event.type) {
    case 'checkout.session.completed':
      return checkoutCompleted(scope, event.data.object);
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted':
      return subscriptionChanged(scope, stripe, event.data.object, event.created);
    case 'invoice.paid':
    case 'invoice.payment_failed':
    case 'invoice.finalized':
      return invoiceChanged(scope, event.data.object, event.created);
    default:
      return IGNORED;
  }
}

async function accountOf(db: Db, customerId: string | null, metadataAccountId: unknown): Promise<string | null> {
  if (customerId) {
    const byCustomer = await findAccountIdByCustomer(db, customerId);
    if (byCustomer) return byCustomer;
  }
  if (typeof metadataAccountId === 'string' && metadataAccountId.length > 0 && metadataAccountId.length < 200) {
    const row = await findBillingRow(db, metadataAccountId);
    if (row && (row.stripe_customer_id === null || row.stripe_customer_id === customerId)) return row.id;
  }
  return null;
}

async function checkoutCompleted(db: Db, session: Stripe.Checkout.Session): Promise<WebhookOutcome> {
  const customerId = text(idOf(session.customer));
  const accountId = await accountOf(db, customerId, session.client_reference_id ?? session.metadata?.accountId);
  if (!accountId) return IGNORED;
  const subscriptionId = text(idOf(session.subscription));
  await updateSubscriptionFields(db, accountId, {
    ...(customerId ? { stripe_customer_id: customerId } : {}),
    ...(subscriptionId ? { stripe_subscription_id: subscriptionId } : {}),
  });
  return handled(accountId);
}

function planOf(stripe: StripeBilling, subscription: Stripe.Subscription): PlanId | null {
  const priceId = subscription.items?.data?.[0]?.price?.id;
  for (const [plan, price] of Object.entries(stripe.config.prices)) if (price === priceId) return plan as PlanId;
  const named = subscription.metadata?.planId;
  return PLAN_IDS.includes(named as PlanId) ? (named as PlanId) : null;
}

async function subscriptionChanged(
  db: Db,
  stripe: StripeBilling,
  subscription: Stripe.Subscription,
  created: number,
): Promise<WebhookOutcome> {
  const customerId = text(idOf(subscription.customer));
  const accountId = await accountOf(db, customerId, subscription.metadata?.accountId);
  const status = text(subscription.status);
  if (!accountId || !text(subscription.id) || !status) return IGNORED;
  const row = await findBillingRow(db, accountId);
  if (!row) return IGNORED;
  if (row.subscription_event_at !== null && created < Number(row.subscription_event_at)) return STALE;
  // The end of an older subscription the account has since replaced changes nothing.
  if (
    row.stripe_subscription_id &&
    row.stripe_subscription_id !== subscription.id &&
    subscription.status === 'canceled'
  ) {
    return STALE;
  }
  const item = subscription.items?.data?.[0];
  const plan = planOf(stripe, subscription);
  await updateSubscriptionFields(db, accountId, {
    stripe_subscription_id: subscription.id,
    ...(customerId ? { stripe_customer_id: customerId } : {}),
    subscription_status: status,
    ...(plan ? { subscription_plan: plan } : {}),
    subscription_renewal_date: iso(item?.current_period_end),
    subscription_period_start: iso(item?.current_period_start),
    cancel_at_period_end: subscription.cancel_at_period_end ? 1 : 0,
    subscription_event_at: created,
  });
  return handled(accountId);
}

async function invoiceChanged(db: Db, invoice: Stripe.Invoice, created: number): Promise<WebhookOutcome> {
  const accountId = await accountOf(db, text(idOf(invoice.customer)), invoice.metadata?.accountId);
  if (!accountId || !text(invoice.id) || !invoice.id) return IGNORED;
  const status = text(invoice.status) ?? 'open';
  await upsertInvoice(db, {
    accountId,
    stripeInvoiceId: invoice.id,
    amount: cents(status === 'paid' ? invoice.amount_paid : invoice.amount_due),
    currency: text(invoice.currency) ?? 'usd',
    status,
    pdfUrl: webUrl(invoice.invoice_pdf),
    invoiceDate: iso(invoice.created) ?? new Date(created * 1000).toISOString(),
    eventAt: created,
  });
  return handled(accountId);
}
