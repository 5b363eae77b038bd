import type { Secret } from '@basalt/shared';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ONBOARDING_STORAGE_KEY } from '@/features/onboarding/onboarding-storage';
import { createFakeAuth, fakeSession } from '@/test/fake-auth';
import { createFakeBackend, type FakeRoute, json } from '@/test/fake-backend';
import { renderApp } from '@/test/render-app';

// /secrets against a fake server: the empty text and banner, the masked value shown on demand, the required
// value, the badges, search, and the load failure.

const holder = vi.hoisted(() => ({ client: null as unknown }));
vi.mock('@/lib/supabase', () => ({ getSupabase: () => holder.client }));

const stripe: Secret = { id: 1, name: 'STRIPE_KEY', isEncrypted: true, createdAt: '2026-03-05T10:00:00.000Z' };
const site: Secret = { id: 2, name: 'SITE_NAME', isEncrypted: false, createdAt: '2026-03-05T10:00:00.000Z' };

function serve(routes: Record<string, FakeRoute>) {
  const backend = createFakeBackend(routes);
  vi.stubGlobal('fetch', vi.fn(backend.fetch));
  holder.client = { auth: createFakeAuth(fakeSession()).auth, from: () => null };
  return backend;
}

beforeEach(() => localStorage.setItem(ONBOARDING_STORAGE_KEY, 'true'));
afterEach(() => vi.unstubAllGlobals());

describe('Secrets page', () => {
  it('shows the empty text and the advice banner', async () => {
    serve({ 'GET /api/secrets': () => json(200, []) });
    renderApp('/secrets');
    expect(await screen.findByText('No secrets available. Add your first secret to get started.')).toBeInTheDocument();
    expect(screen.getByRole('note')).toHaveTextContent('instead of hard-coding them');
  });

  it('masks values with 12 dots, reveals one on demand, and shows the encryption badges', async () => {
    const backend = serve({
      'GET /api/secrets': () => json(200, [site, stripe]),
      'GET /api/secrets/1/value': () => json(200, { value: 'sk_live_123' }),
    });
    const user = userEvent.setup();
    renderApp('/secrets');
    const row = (await screen.findByText('STRIPE_KEY')).closest('tr') as HTMLElement;
    expect(within(row).getByText('•'.repeat(12))).toBeInTheDocument();
    expect(within(row).getAllByText('Encrypted').length).toBeGreaterThan(0);
    expect(backend.find('GET', '/api/secrets/1/value')).toHaveLength(0);
    await user.click(within(row).getByRole('button', { name: 'Show STRIPE_KEY' }));
    expect(await within(row).findByText('sk_live_123')).toBeInTheDocument();
    await user.click(within(row).getByRole('button', { name: 'Hide STRIPE_KEY' }));
    expect(within(row).getByText('•'.repeat(12))).toBeInTheDocument();
    const plain = screen.getByText('SITE_NAME').closest('tr') as HTMLElement;
    expect(within(plain).getAllByText('Plain Text').length).toBeGreaterThan(0);

    await user.type(screen.getByRole('searchbox', { name: 'Search secrets by name' }), 'stripe');
    await waitFor(() => expect(screen.queryByText('SITE_NAME')).not.toBeInTheDocument());
  });

  it('requires a value, and sends the secret encrypted by default', async () => {
    const backend = serve({
      'GET /api/secrets': () => json(200, []),
      'POST /api/secrets': () => json(201, stripe),
    });
    const user = userEvent.setup();
    renderApp('/secrets');
    await user.click((await screen.findAllByRole('button', { name: 'Add Secret' }))[0] as HTMLElement);
    const dialog = await screen.findByRole('dialog', { name: 'Add Secret' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'STRIPE_KEY');
    await user.click(within(dialog).getByRole('button', { name: 'Add Secret' }));
    expect(await within(dialog).findByText('Secret value is required')).toBeInTheDocument();
    expect(backend.find('POST', '/api/secrets')).toHaveLength(0);
    await user.type(within(dialog).getByLabelText('Value'), 'sk_live_123');
    await user.click(within(dialog).getByRole('button', { name: 'Add Secret' }));
    expect(await screen.findByText('Secret created')).toBeInTheDocument();
    expect(backend.find('POST', '/api/secrets')[0]?.body).toEqual({
      name: 'STRIPE_KEY',
      value: 'sk_live_123',
      isEncrypted: true,
    });
  });

  it('says "Failed to fetch secrets" when the list cannot load', async () => {
    serve({ 'GET /api/secrets': () => json(403, { message: 'Not yours' }) });
    renderApp('/secrets');
    expect((await screen.findAllByText('Failed to fetch secrets')).length).toBeGreaterThan(0);
  });
});
