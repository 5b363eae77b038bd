import type { TableResponse } from '@basalt/shared';
import { createClient } from '@supabase/supabase-js';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ONBOARDING_STORAGE_KEY } from '@/features/onboarding/onboarding-storage';
import { createFakeAuth, fakeSession } from '@/test/fake-auth';
import { createFakeBackend, FAKE_ORIGIN, type FakeRoute, json } from '@/test/fake-backend';
import { renderApp } from '@/test/render-app';

const holder = vi.hoisted(() => ({ client: null as unknown }));
vi.mock('@/lib/supabase', () => ({ getSupabase: () => holder.client }));

const orders: TableResponse = {
  id: 9,
  name: 'orders',
  description: null,
  schema: { id: { type: 'number', required: true, unique: true } },
  createdAt: new Date(Date.now() - 3 * 24 * 3600 * 1000).toISOString(),
  updatedAt: new Date().toISOString(),
};

const pending = () => new Promise<Response>(() => {});
const page = (n: number, total: number) => ({
  data: Array.from({ length: Math.min(10, total - (n - 1) * 10) }, (_, i) => ({
    id: (n - 1) * 10 + i + 1,
    action: 'CREATE',
    resource: 'tables',
    details: { name: `t${(n - 1) * 10 + i + 1}` },
    createdAt: new Date().toISOString(),
  })),
  pagination: {
    totalItems: total,
    totalPages: Math.ceil(total / 10),
    currentPage: n,
    hasNext: n * 10 < total,
    hasPrevious: n > 1,
  },
});

function serve(routes: Record<string, FakeRoute>) {
  const backend = createFakeBackend(routes);
  vi.stubGlobal('fetch', vi.fn(backend.fetch));
  const data = createClient(FAKE_ORIGIN, 'anon-key', {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
  });
  holder.client = { auth: createFakeAuth(fakeSession()).auth, from: (table: string) => data.from(table) };
  return backend;
}

beforeEach(() => localStorage.setItem(ONBOARDING_STORAGE_KEY, 'true'));
afterEach(() => vi.unstubAllGlobals());

describe('the dashboard', () => {
  it('shows three skeleton table rows and four skeleton activity rows while loading', async () => {
    serve({ 'GET /rest/v1/tables': pending, 'GET /api/activity': pending, 'GET /api/stats': pending });
    renderApp('/');
    expect(await screen.findAllByTestId('dashboard-skeleton-row')).toHaveLength(3);
    expect(screen.getAllByTestId('activity-skeleton-row')).toHaveLength(4);
  });

  it('shows the stat cards with their links, the real row counts and the empty activity', async () => {
    serve({
      'GET /api/stats': () =>
        json(200, {
          activities: 12,
          apiCalls: 4321,
          storageSize: '1.2 MB',
          filesSize: '13.0 MB',
          totalSize: '14.2 MB',
          tables: 1,
        }),
      'GET /rest/v1/tables': () => json(200, [orders]),
      'HEAD /rest/v1/orders': () => new Response(null, { status: 200, headers: { 'Content-Range': '*/1234' } }),
      'GET /api/activity': () => json(200, page(1, 0)),
    });
    renderApp('/');
    // The Database Size card: tables and stored files together, each said below.
    expect(await screen.findByText('14.2 MB')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Database Size/ })).toHaveTextContent('Database 1.2 MB · Files 13.0 MB');
    // Billing's count of API calls, not the activity (the two pages agree).
    const requests = screen.getByRole('link', { name: /API Requests/ });
    expect(requests).toHaveAttribute('href', '/billing');
    expect(requests).toHaveTextContent('4,321');
    expect(requests).toHaveTextContent('API calls this billing period');
    expect(screen.getByRole('link', { name: /Database Size/ })).toHaveAttribute('href', '/settings');
    expect(screen.getByRole('link', { name: /Tables in your database/ })).toHaveAttribute('href', '/tables');
    // The two figures with a chart on the page link to it too.
    expect(screen.getByRole('link', { name: 'API traffic chart' })).toHaveAttribute('href', '#api-traffic');
    expect(screen.getByRole('link', { name: 'Storage growth chart' })).toHaveAttribute('href', '#storage-growth');
    expect(document.getElementById('api-traffic')).not.toBeNull();
    const row = (await screen.findByText('orders')).closest('tr') as HTMLElement;
    expect(await within(row).findByText('1,234')).toBeInTheDocument();
    expect(within(row).getByText('3 days ago')).toBeInTheDocument();
    expect(within(row).getByRole('link', { name: 'View orders' })).toHaveAttribute('href', '/tables/9');
    expect(await screen.findByText('No recent activity')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
    expect(screen.getByText('API Endpoints')).toBeInTheDocument();
  });

  it('pages the activity ten at a time', async () => {
    const backend = serve({
      'GET /api/stats': () => json(200, { activities: 15, storageSize: '0 MB', tables: 0 }),
      'GET /rest/v1/tables': () => json(200, []),
      'GET /api/activity': (request) => json(200, page(Number(request.url.searchParams.get('page')), 15)),
    });
    const user = userEvent.setup();
    renderApp('/');
    expect(await screen.findByText('No tables found')).toBeInTheDocument();
    expect(await screen.findByText('Table created: t1')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('Table created: t11')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Previous' })).toBeEnabled();
    expect(backend.find('GET', '/api/activity').at(-1)?.url.search).toBe('?page=2&limit=10');
  });
});
