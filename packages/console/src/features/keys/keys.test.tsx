import type { ApiKey } from '@basalt/shared';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ONBOARDING_STORAGE_KEY } from '@/features/onboarding/onboarding-storage';
import { createFakeAuth, fakeSession } from '@/test/fake-auth';
import { createFakeBackend, type FakeRoute, json } from '@/test/fake-backend';
import { renderApp } from '@/test/render-app';

// The API Keys tab of /api against a fake server: list, the one-time secret with its copy button, delete.

const holder = vi.hoisted(() => ({ client: null as unknown }));
vi.mock('@/lib/supabase', () => ({ getSupabase: () => holder.client }));

const SECRET = 'bsk_0123456789abcdefghijklmnopqrstuvwxyzABCD';
const deploy: ApiKey = {
  id: 1,
  name: 'Deploy',
  prefix: 'bsk_01234567',
  createdAt: '2026-03-05T10:00:00.000Z',
  lastUsedAt: null,
};

function serve(routes: Record<string, FakeRoute>) {
  const backend = createFakeBackend(routes);
  vi.stubGlobal('fetch', vi.fn(backend.fetch));
  holder.client = { auth: createFakeAuth(fakeSession()).auth, from: () => null };
  return backend;
}

beforeEach(() => localStorage.setItem(ONBOARDING_STORAGE_KEY, 'true'));
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('API Keys', () => {
  it('lists keys with Name, Created and Actions', async () => {
    serve({ 'GET /api/keys': () => json(200, [deploy]) });
    renderApp('/api');
    await screen.findByText('Deploy');
    const table = screen.getByRole('table', { name: 'API keys' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Name', 'Created', 'Actions']);
    expect(within(table).getByText('Deploy')).toBeInTheDocument();
    expect(within(table).getByRole('button', { name: 'Delete API key Deploy' })).toBeInTheDocument();
  });

  it('refuses a blank name, then shows the secret once with a copy button that resets after 2 s', async () => {
    let keys: ApiKey[] = [];
    const backend = serve({
      'GET /api/keys': () => json(200, keys),
      'POST /api/keys': (request) => {
        const { name } = Object(request.body);
        keys = [{ ...deploy, name }];
        return json(201, { ...deploy, name, key: SECRET });
      },
    });
    const user = userEvent.setup();
    renderApp('/api');
    expect(await screen.findByText('No API keys yet')).toBeInTheDocument();
    // One way to create a key: the card's button, not a second one in the empty state.
    expect(screen.getAllByRole('button', { name: 'Create API Key' })).toHaveLength(1);
    await user.click(screen.getByRole('button', { name: 'Create API Key' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create API Key' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), '   ');
    await user.click(within(dialog).getByRole('button', { name: 'Create API Key' }));
    expect(await within(dialog).findByText('Name is required')).toBeInTheDocument();
    expect(backend.find('POST', '/api/keys')).toHaveLength(0);

    await user.clear(within(dialog).getByRole('textbox', { name: 'Name' }));
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'CI');
    await user.click(within(dialog).getByRole('button', { name: 'Create API Key' }));
    expect(await screen.findByText('API Key created', { selector: 'h2' })).toBeInTheDocument();
    const shown = screen.getByRole('dialog', { name: 'API Key created' });
    expect(within(shown).getByRole('textbox', { name: 'CI' })).toHaveValue(SECRET);

    vi.useFakeTimers({ shouldAdvanceTime: true });
    await user.click(within(shown).getByRole('button', { name: 'Copy API key' }));
    // user-event puts its own clipboard on navigator; it holds what was copied.
    expect(await navigator.clipboard.readText()).toBe(SECRET);
    expect(within(shown).getByRole('button', { name: 'Copied' })).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(1900));
    expect(within(shown).getByRole('button', { name: 'Copied' })).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(200));
    expect(within(shown).getByRole('button', { name: 'Copy API key' })).toBeInTheDocument();
    vi.useRealTimers();

    await user.click(within(shown).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await screen.findByText('CI')).toBeInTheDocument();
    expect(screen.queryByDisplayValue(SECRET)).not.toBeInTheDocument();
  });

  it('shows "Failed to create API key" with the server message', async () => {
    serve({
      'GET /api/keys': () => json(200, []),
      'POST /api/keys': () => json(400, { message: 'Name must be at most 100 characters' }),
    });
    const user = userEvent.setup();
    renderApp('/api');
    await user.click(await screen.findByRole('button', { name: 'Create API Key' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create API Key' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'x');
    await user.click(within(dialog).getByRole('button', { name: 'Create API Key' }));
    expect(await screen.findByText('Failed to create API key')).toBeInTheDocument();
    expect(screen.getByText('Name must be at most 100 characters')).toBeInTheDocument();
  });

  it('deletes a key after confirming, and says when that fails', async () => {
    let fail = false;
    const backend = serve({
      'GET /api/keys': () => json(200, [deploy]),
      'DELETE /api/keys/1': () => (fail ? json(404, { message: 'API key not found' }) : json(200, { success: true })),
    });
    const user = userEvent.setup();
    renderApp('/api');
    await user.click(await screen.findByRole('button', { name: 'Delete API key Deploy' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Delete API key?' });
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('API Key deleted')).toBeInTheDocument();
    expect(backend.find('DELETE', '/api/keys/1')).toHaveLength(1);

    fail = true;
    await user.click(await screen.findByRole('button', { name: 'Delete API key Deploy' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Failed to delete API key')).toBeInTheDocument();
    expect(screen.getByText('API key not found')).toBeInTheDocument();
  });
});
