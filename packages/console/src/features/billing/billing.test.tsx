import type { Invoice, Subscription, Usage } from '@basalt/shared';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ONBOARDING_STORAGE_KEY } from '@/features/onboarding/onboarding-storage';
import { createFakeAuth, fakeSession } from '@/test/fake-auth';
import { createFakeBackend, type FakeRoute, json } from '@/test/fake-backend';
import { renderApp } from '@/test/render-app';

// /billing against a fake server: each tab, the status badges, the dialogs, and every toast of the billing calls.

const holder = vi.hoisted(() => ({ client: null as unknown }));
vi.mock('@/lib/supabase', () => ({ getSupabase: () => holder.client }));

const usage: Usage = {
  apiCalls: 15_000,
  maxApiCalls: 10_000,
  storageMb: 12.5,
  maxStorageMb: 1024,
  computeMinutes: 0,
  maxComputeMinutes: 100,
  databaseConnections: 1,
  maxDatabaseConnections: 1,
  plan: 'free',
  periodStart: '2026-11-01T00:00:00.000Z',
  periodEnd: '2026-12-01T00:00:00.000Z',
};
const active: Subscription = {
  status: 'active',
  plan: 'starter',
  renewalDate: '2026-12-12T10:00:00.000Z',
  cancelAtPeriodEnd: false,
};
const none: Subscription = { status: null, plan: 'free', renewalDate: null, cancelAtPeriodEnd: false };
const invoices: Invoice[] = [
  { id: 'in_1', date: '2026-11-12T10:00:00.000Z', amount: 999, status: 'paid', pdfUrl: 'https://pay.example/in_1.pdf' },
  { id: 'in_2', date: '2026-10-12T10:00:00.000Z', amount: 2999, status: 'open', pdfUrl: null },
  { id: 'in_3', date: '2026-09-12T10:00:00.000Z', amount: 5, status: 'uncollectible', pdfUrl: null },
];

function serve(routes: Record<string, FakeRoute>) {
  const backend = createFakeBackend({
    'GET /api/billing/usage': () => json(200, usage),
    'GET /api/billing/subscription': () => json(200, none),
    'GET /api/billing/invoices': () => json(200, []),
    'GET /api/billing/usage/history': () =>
      json(200, [
        { day: '2026-11-01', apiCalls: 10, computeMinutes: 0, storageMb: null },
        { day: '2026-11-02', apiCalls: 30, computeMinutes: 1.5, storageMb: 3.5 },
      ]),
    ...routes,
  });
  vi.stubGlobal('fetch', vi.fn(backend.fetch));
  holder.client = { auth: createFakeAuth(fakeSession()).auth, from: () => null };
  return backend;
}

beforeEach(() => localStorage.setItem(ONBOARDING_STORAGE_KEY, 'true'));
afterEach(() => vi.unstubAllGlobals());

describe('Billing page', () => {
  it('shows the subscription, its renewal and the four usage cards with bars clamped to 100', async () => {
    serve({ 'GET /api/billing/subscription': () => json(200, active) });
    renderApp('/billing');
    expect(await screen.findByRole('heading', { name: 'Billing' })).toBeInTheDocument();
    expect(await screen.findByText('Active')).toHaveClass('text-success');
    expect(screen.getByText('Starter')).toBeInTheDocument();
    expect(screen.getByText('Renews On')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Cancel Subscription' })).toBeInTheDocument();
    const cards = await screen.findByRole('region', { name: 'Usage this period' });
    const bars = within(cards).getAllByRole('progressbar');
    expect(bars.map((b) => b.getAttribute('aria-valuenow'))).toEqual(['100', '1', '0', '100']);
    expect(within(cards).getByText('15,000')).toBeInTheDocument();
  });

  it('cancels through the dialog, then shows Ends On and Upgrade Plan', async () => {
    let subscription = active;
    const backend = serve({
      'GET /api/billing/subscription': () => json(200, subscription),
      'POST /api/billing/cancel-subscription': () => {
        subscription = { ...active, cancelAtPeriodEnd: true };
        return json(200, subscription);
      },
    });
    const user = userEvent.setup();
    renderApp('/billing');
    await user.click(await screen.findByRole('button', { name: 'Cancel Subscription' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog).toHaveTextContent(
      "You'll still have access to your current plan until the end of your billing period.",
    );
    await user.click(within(dialog).getByRole('button', { name: 'Keep Subscription' }));
    expect(backend.find('POST', '/api/billing/cancel-subscription')).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Cancel Subscription' }));
    await user.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Cancel Subscription' }),
    );
    expect(await screen.findByText('Subscription canceled')).toBeInTheDocument();
    expect(await screen.findByText('Ends On')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Upgrade Plan' })).toBeInTheDocument();
  });

  it('says why a cancellation failed', async () => {
    serve({
      'GET /api/billing/subscription': () => json(200, active),
      'POST /api/billing/cancel-subscription': () => json(502, { message: 'Stripe refused the request: down' }),
    });
    const user = userEvent.setup();
    renderApp('/billing');
    await user.click(await screen.findByRole('button', { name: 'Cancel Subscription' }));
    await user.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Cancel Subscription' }),
    );
    expect(
      await screen.findByText('Failed to cancel subscription: Stripe refused the request: down'),
    ).toBeInTheDocument();
  });

  it.each([
    [null, 'No Subscription'],
    ['canceled', 'Canceled'],
    ['incomplete', 'Incomplete'],
    ['unpaid', 'Unpaid'],
    ['past_due', 'No Subscription'],
  ])('shows status %s as %s', async (status, label) => {
    serve({ 'GET /api/billing/subscription': () => json(200, { ...none, status }) });
    renderApp('/billing');
    expect(await screen.findByText(label)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Upgrade Plan' })).toBeInTheDocument();
  });

  it('starts checkout for the starter plan and shows the payment dialog for an embedded session', async () => {
    let answer: () => Response = () => json(200, { clientSecret: 'cs_secret' });
    const backend = serve({ 'POST /api/billing/create-checkout-session': () => answer() });
    const user = userEvent.setup();
    renderApp('/billing');
    await user.click(await screen.findByRole('button', { name: 'Upgrade Plan' }));
    const dialog = await screen.findByRole('dialog', { name: 'Complete your payment' });
    expect(await within(dialog).findByText(/Your checkout session is ready/)).toBeInTheDocument();
    expect(backend.find('POST', '/api/billing/create-checkout-session')[0]?.body).toEqual({ planId: 'starter' });
    await user.keyboard('{Escape}');

    answer = () => json(200, {});
    await user.click(screen.getByRole('button', { name: 'Upgrade Plan' }));
    expect(await screen.findByText('Could not create payment session. Please try again.')).toBeInTheDocument();

    answer = () => json(400, { message: 'Billing is not configured on this server' });
    await user.click(screen.getByRole('button', { name: 'Upgrade Plan' }));
    expect(
      await screen.findByText('Failed to create checkout session: 400 (Billing is not configured on this server)'),
    ).toBeInTheDocument();
  });

  it('shows the spinner while the session is prepared', async () => {
    let release: (r: Response) => void = () => {};
    serve({
      'POST /api/billing/create-checkout-session': () => new Promise<Response>((resolve) => (release = resolve)),
    });
    const user = userEvent.setup();
    renderApp('/billing');
    await user.click(await screen.findByRole('button', { name: 'Upgrade Plan' }));
    const dialog = await screen.findByRole('dialog', { name: 'Complete your payment' });
    expect(within(dialog).getByRole('status', { name: 'Preparing checkout' })).toBeInTheDocument();
    release(json(200, { clientSecret: 'cs_secret' }));
    expect(await within(dialog).findByText(/Your checkout session is ready/)).toBeInTheDocument();
  });

  it('shows percent, used and limit per metric, the charts and the upgrade prompt', async () => {
    serve({});
    const user = userEvent.setup();
    renderApp('/billing?tab=usage');
    expect(await screen.findByText('100% · 15,000 of 10,000')).toBeInTheDocument();
    expect(screen.getByText('1% · 12.5 of 1,024 MB')).toBeInTheDocument();
    expect(await screen.findByRole('list', { name: 'API calls per day' })).toBeInTheDocument();
    expect(screen.getByLabelText('2026-11-02: 30')).toBeInTheDocument();
    const storage = screen.getByRole('list', { name: 'Storage per day' });
    expect(within(storage).getByLabelText('2026-11-01: not measured')).toBeInTheDocument();
    expect(within(storage).getByLabelText('2026-11-02: 3.5 MB')).toBeInTheDocument();
    expect(screen.getByText('3.5 MB now')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'View Plans' }));
    expect(await screen.findByRole('region', { name: 'Starter plan' })).toBeInTheDocument();
  });

  it('offers a lower plan as a switch, not an upgrade, while on Professional', async () => {
    serve({ 'GET /api/billing/subscription': () => json(200, { ...active, plan: 'professional' }) });
    renderApp('/billing?tab=plans');
    const starter = await screen.findByRole('region', { name: 'Starter plan' });
    await waitFor(() => expect(within(starter).getByRole('button', { name: 'Switch to Starter' })).toBeInTheDocument());
    expect(screen.queryByRole('button', { name: 'Upgrade to Starter' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Upgrade to Enterprise' })).toBeInTheDocument();
  });

  it('marks the current plan, disables it and the free plan, and checks out another', async () => {
    const backend = serve({
      'GET /api/billing/subscription': () => json(200, active),
      'POST /api/billing/create-checkout-session': () => json(200, { clientSecret: 'cs' }),
    });
    const user = userEvent.setup();
    renderApp('/billing?tab=plans');
    const starter = await screen.findByRole('region', { name: 'Starter plan' });
    expect(within(starter).getByText('$9.99')).toBeInTheDocument();
    await waitFor(() => expect(within(starter).getByRole('button', { name: 'Current Plan' })).toBeDisabled());
    const free = screen.getByRole('region', { name: 'Free plan' });
    expect(within(free).getByRole('button', { name: 'Free Plan' })).toBeDisabled();
    const enterprise = screen.getByRole('region', { name: 'Enterprise plan' });
    expect(within(enterprise).getByText('Unlimited API calls')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Upgrade to Professional' }));
    await waitFor(() =>
      expect(backend.find('POST', '/api/billing/create-checkout-session')[0]?.body).toEqual({
        planId: 'professional',
      }),
    );
  });

  it('lists invoices with amounts, status styles and downloads in a new tab', async () => {
    serve({ 'GET /api/billing/invoices': () => json(200, invoices) });
    renderApp('/billing?tab=invoices');
    const table = await screen.findByRole('table', { name: 'Invoices' });
    expect(await within(table).findByText('$9.99')).toBeInTheDocument();
    expect(within(table).getByText('$29.99')).toBeInTheDocument();
    expect(within(table).getByText('$0.05')).toBeInTheDocument();
    expect(within(table).getByText('paid')).toHaveClass('text-success');
    expect(within(table).getByText('uncollectible')).toHaveClass('text-destructive');
    const download = within(table).getByRole('link', { name: 'Download' });
    expect(download).toHaveAttribute('href', 'https://pay.example/in_1.pdf');
    expect(download).toHaveAttribute('target', '_blank');
  });

  it('says "No invoices yet", and names each load failure', async () => {
    serve({
      'GET /api/billing/usage': () => json(500, { message: 'down' }),
      'GET /api/billing/subscription': () => json(403, { message: 'no' }),
    });
    renderApp('/billing?tab=invoices');
    expect(await screen.findByText('No invoices yet')).toBeInTheDocument();
    expect((await screen.findAllByText(/Failed to fetch (usage|subscription) data/)).length).toBeGreaterThan(0);
  });

  it('shows unread notifications in the bell menu', async () => {
    const backend = serve({
      'GET /api/user/notifications': () =>
        json(200, [
          {
            id: 1,
            title: '80% of API calls used',
            message: 'You have used 80% of your plan’s API calls (8000 of 10000) this billing period.',
            read: false,
            createdAt: new Date().toISOString(),
          },
        ]),
      'POST /api/user/notifications/read': () => json(200, { success: true }),
    });
    const user = userEvent.setup();
    renderApp('/billing');
    await user.click(await screen.findByRole('button', { name: 'Notifications (1 new)' }));
    expect(await screen.findByText('80% of API calls used')).toBeInTheDocument();
    expect(screen.queryByText('No new notifications')).not.toBeInTheDocument();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(backend.find('POST', '/api/user/notifications/read')).toHaveLength(1));
  });

  it("pages the administrator's accounts view", async () => {
    const me = {
      id: 'admin-1',
      username: 'admin',
      email: 'admin@example.com',
      isAdmin: true,
      stripeCustomerId: null,
      stripeSubscriptionId: null,
      subscriptionStatus: null,
      subscriptionPlan: null,
      subscriptionRenewalDate: null,
      cancelAtPeriodEnd: null,
      createdAt: '2026-11-01T00:00:00.000Z',
    };
    const accountsPage = (page: number) => ({
      data: [
        {
          accountId: `acc-${page}`,
          email: `user${page}@example.com`,
          username: `user${page}`,
          plan: 'free',
          status: null,
          usage,
        },
      ],
      pagination: { totalItems: 21, totalPages: 2, currentPage: page, hasNext: page < 2, hasPrevious: page > 1 },
    });
    const backend = serve({
      'GET /api/auth/me': () => json(200, { user: me }),
      'GET /api/billing/accounts': (request) => json(200, accountsPage(Number(request.url.searchParams.get('page')))),
    });
    const user = userEvent.setup();
    renderApp('/billing?tab=accounts');
    expect(await screen.findByText('user1@example.com')).toBeInTheDocument();
    expect(screen.getByText('21 accounts')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    expect(await screen.findByText('user2@example.com')).toBeInTheDocument();
    expect(backend.find('GET', '/api/billing/accounts').map((r) => r.url.searchParams.get('limit'))).toContain('20');
  });

  it('sends a paid plan set to end to the Plans tab from Upgrade Plan, not to Starter`s checkout (issue 35)', async () => {
    const backend = serve({
      'GET /api/billing/subscription': () => json(200, { ...active, plan: 'professional', cancelAtPeriodEnd: true }),
    });
    const user = userEvent.setup();
    renderApp('/billing');
    await user.click(await screen.findByRole('button', { name: 'Upgrade Plan' }));
    expect(await screen.findByRole('tab', { name: 'Plans', selected: true })).toBeInTheDocument();
    expect(backend.find('POST', '/api/billing/create-checkout-session')).toEqual([]);
  });
});
