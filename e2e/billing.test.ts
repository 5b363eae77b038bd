import { DEFAULT_PLANS } from '@basalt/shared';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SignedInTestUser, signUpUser, users } from '../packages/server/src/testing/auth.fixtures.js';
import {
  type FakeStripe,
  startFakeStripe,
  stripeBillingConfig,
  stripeEvent,
  subscriptionObject,
} from '../packages/server/src/testing/stripe.fixtures.js';
import { browserSkipReason } from './support/chromium.js';
import { accessToken, registerAndSignIn } from './support/console-account.js';
import { forEachLook, openConsolePage, shot } from './support/console-page.js';
import { type ConsoleSession, startConsoleSession } from './support/console-server.js';
import { chartsDrawn, settledDialog, toast, visible } from './support/console-waits.js';
import { createTableThroughApi } from './support/server-api.js';

// Billing as an operator's customer meets it: usage on the free plan and the 80 % warning, checkout on Stripe's
// page, the subscription Stripe's webhook makes active, its invoice, cancelling it, and its end; the
// administrator's view of every account. Grace is an ordinary account (the first one administers the instance, and
// no cap holds an administrator back) until the operator makes her an administrator for the last part. Stripe's API is the local double the SDK is pointed at, and Stripe's
// events are signed with the SDK's helper. Screenshots at 1280 and 375 px, light and dark.

const skip = browserSkipReason();
const grace = { username: 'grace_h', email: 'grace@example.com', password: 'Cobol!1959' };
// A small free plan, so that a few calls show on the bars and reach the 80 % warning.
const API_CALLS = 20;

async function openBilling(page: Page, tab?: string): Promise<void> {
  await page.goto(tab ? `/billing?tab=${tab}` : '/billing');
  await visible(page.getByRole('heading', { level: 1, name: 'Billing' }));
}

describe.skipIf(skip)('Billing in Chromium', () => {
  let fake: FakeStripe;
  let session: ConsoleSession;
  let operator: SignedInTestUser;
  let customer = '';
  const now = Math.floor(Date.now() / 1000);

  const sendEvent = async (type: string, object: Record<string, unknown>, created = now) => {
    const event = stripeEvent(type, object, created);
    const res = await fetch(`${session.server.url}/api/billing/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': event.signature },
      body: event.payload,
    });
    expect(res.status).toBe(200);
  };

  beforeAll(async () => {
    fake = await startFakeStripe();
    const plans = DEFAULT_PLANS.map((p) =>
      p.id === 'free' ? { ...p, limits: { ...p.limits, apiCalls: API_CALLS } } : p,
    );
    session = await startConsoleSession('sqlite', { billing: stripeBillingConfig(fake, { plans }) });
    operator = await signUpUser(session.server, users.dave);
  });
  afterAll(async () => {
    await session?.close();
    await fake?.close();
  });

  it('shows usage, warns, checks out, activates, invoices, cancels and ends', async () => {
    const { page } = await openConsolePage(session, 'desktop');
    await registerAndSignIn(page, grace);
    const token = await accessToken(page);
    await createTableThroughApi(session, token, {
      name: 'orders',
      description: 'Orders',
      schema: { total: { type: 'number' } },
    });
    const headers = { apikey: session.server.anonKey, authorization: `Bearer ${token}` };
    for (let i = 0; i < 16; i++) {
      expect((await fetch(`${session.server.url}/rest/v1/orders?select=id`, { headers })).status).toBe(200);
    }
    await session.server.app.basalt.usage?.flush();
    // The reading taken during the next call sees 80 %.
    await new Promise((resolve) => setTimeout(resolve, 300));
    await fetch(`${session.server.url}/rest/v1/orders?select=id`, { headers });
    await new Promise((resolve) => setTimeout(resolve, 300));

    await openBilling(page);
    await visible(page.getByText('No Subscription'));
    await visible(page.getByRole('button', { name: 'Upgrade Plan' }));
    const cards = page.getByRole('region', { name: 'Usage this period' });
    await visible(cards.getByText('API Calls'));
    expect(
      Number(await cards.getByRole('progressbar', { name: 'API Calls used' }).getAttribute('aria-valuenow')),
    ).toBeGreaterThanOrEqual(80);
    await visible(page.getByRole('button', { name: /Notifications \(1 new\)/ }));
    await shot(page, 'billing-overview-free-desktop');
    await page.getByRole('button', { name: /Notifications/ }).click();
    await visible(page.getByText('80% of API calls used'));
    expect(await page.getByText('No new notifications').count()).toBe(0);
    await shot(page, 'billing-notifications-desktop');
    await page.keyboard.press('Escape');

    // Upgrade: the payment dialog's spinner while the session is prepared, then Stripe's hosted page.
    await page.route('**/api/billing/create-checkout-session', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1200));
      await route.continue();
    });
    await page.route('https://checkout.stripe.test/**', (route) =>
      route.fulfill({ contentType: 'text/html', body: '<h1>Stripe Checkout</h1>' }),
    );
    await page.getByRole('button', { name: 'Upgrade Plan' }).click();
    const payment = page.getByRole('dialog', { name: 'Complete your payment' });
    await visible(payment.getByRole('status', { name: 'Preparing checkout' }));
    await shot(page, 'billing-payment-dialog-desktop');
    await page.waitForURL(/checkout\.stripe\.test\/c\/pay\/cs_test_/);
    await visible(page.getByRole('heading', { name: 'Stripe Checkout' }));
    customer = fake.requests.findLast((r) => r.path === '/v1/checkout/sessions')?.form.customer ?? '';
    expect(customer).toMatch(/^cus_/);

    // Stripe tells Basalt: the checkout completed, the subscription is active, its first invoice is paid.
    const grace_id = (await (await fetch(`${session.server.url}/api/auth/me`, { headers })).json()).id;
    await sendEvent('checkout.session.completed', {
      id: 'cs_done',
      object: 'checkout.session',
      customer,
      subscription: 'sub_grace',
      client_reference_id: grace_id,
    });
    const sub = (status: string, cancelAtPeriodEnd = false) =>
      subscriptionObject({ id: 'sub_grace', customer, price: 'price_starter', status, start: now, cancelAtPeriodEnd });
    await sendEvent('customer.subscription.created', sub('active'), now);
    await sendEvent('invoice.paid', {
      id: 'in_grace_0001',
      object: 'invoice',
      customer,
      status: 'paid',
      amount_paid: 999,
      amount_due: 999,
      currency: 'usd',
      invoice_pdf: 'https://pay.stripe.test/invoice/in_grace_0001/pdf',
      created: now,
    });

    await openBilling(page);
    await visible(page.getByText('Active', { exact: true }));
    await visible(page.getByText('Renews On'));
    await visible(page.getByText('Starter', { exact: true }));
    await shot(page, 'billing-overview-desktop');

    await page.getByRole('tab', { name: 'Usage' }).click();
    await visible(page.getByRole('list', { name: 'API calls per day' }));
    await chartsDrawn(page);
    await shot(page, 'billing-usage-desktop');

    await page.getByRole('tab', { name: 'Plans' }).click();
    const starter = page.getByRole('region', { name: 'Starter plan' });
    expect(await starter.getByRole('button', { name: 'Current Plan' }).isDisabled()).toBe(true);
    expect(await page.getByRole('region', { name: 'Free plan' }).getByRole('button').isDisabled()).toBe(true);
    await shot(page, 'billing-plans-desktop');

    await page.getByRole('tab', { name: 'Invoices' }).click();
    const row = page.getByRole('row', { name: /in_grace_0001/ });
    await visible(row.getByText('$9.99'));
    await visible(row.getByText('paid'));
    expect(await row.getByRole('link', { name: 'Download' }).getAttribute('target')).toBe('_blank');
    await shot(page, 'billing-invoices-desktop');

    // Cancel: the dialog, then Ends On and Upgrade Plan again; Stripe was asked to cancel at the period's end.
    await page.getByRole('tab', { name: 'Overview' }).click();
    await page.getByRole('button', { name: 'Cancel Subscription' }).click();
    const dialog = page.getByRole('alertdialog');
    await visible(
      dialog.getByText("You'll still have access to your current plan until the end of your billing period."),
    );
    await settledDialog(dialog);
    await shot(page, 'billing-cancel-dialog-desktop');
    await dialog.getByRole('button', { name: 'Cancel Subscription' }).click();
    await toast(page, 'Subscription canceled');
    await visible(page.getByText('Ends On'));
    await visible(page.getByRole('button', { name: 'Upgrade Plan' }));
    expect(fake.requests.findLast((r) => r.path === '/v1/subscriptions/sub_grace')?.form.cancel_at_period_end).toBe(
      'true',
    );
    await shot(page, 'billing-overview-canceling-desktop');

    // At the period's end Stripe deletes the subscription: canceled, back on the free plan.
    await sendEvent('customer.subscription.deleted', sub('canceled', true), now + 30);
    await openBilling(page);
    await visible(page.getByText('Canceled', { exact: true }));
    await visible(page.getByText('Free', { exact: true }));

    // An administrator of the instance sees every account's plan and usage.
    const me = await (await fetch(`${session.server.url}/api/auth/me`, { headers })).json();
    const promoted = await fetch(`${session.server.url}/api/admin/accounts/${me.user.id}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${operator.accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ isAdmin: true }),
    });
    expect(promoted.status).toBe(200);
    await openBilling(page);
    await page.getByRole('tab', { name: 'Accounts' }).click();
    await visible(page.getByRole('combobox', { name: `Plan of ${grace.email}` }));
    await shot(page, 'billing-accounts-desktop');
  });

  it('shows the overview, usage, plans and invoices at 375 px and in dark mode, saving screenshots to review', async () => {
    await forEachLook(session, grace, async (page, suffix) => {
      await openBilling(page);
      await visible(page.getByRole('region', { name: 'Usage this period' }).getByText('API Calls'));
      await shot(page, `billing-overview-${suffix}`);
      await openBilling(page, 'usage');
      await visible(page.getByText('Need more?'));
      await chartsDrawn(page);
      await shot(page, `billing-usage-${suffix}`);
      await openBilling(page, 'plans');
      await visible(page.getByRole('region', { name: 'Enterprise plan' }));
      await shot(page, `billing-plans-${suffix}`);
      await openBilling(page, 'invoices');
      await visible(page.getByText('$9.99'));
      await shot(page, `billing-invoices-${suffix}`);
    });
  });
});
