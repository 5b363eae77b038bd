import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AuthClient } from '@/features/auth/auth-actions';
import { ONBOARDING_STORAGE_KEY } from '@/features/onboarding/onboarding-storage';
import { onNetworkSignal } from '@/lib/network-signals';
import { createFakeAuth, fakeSession } from '@/test/fake-auth';
import { renderApp } from '@/test/render-app';

// A page whose code cannot be downloaded (the server went away since the console loaded) inside the shell.

const supabase = vi.hoisted(() => ({ auth: null as AuthClient | null }));
vi.mock('@/lib/supabase', () => ({
  getSupabase: () => {
    if (!supabase.auth) throw new Error('no fake auth installed');
    return { auth: supabase.auth };
  },
}));

beforeEach(() => {
  supabase.auth = createFakeAuth(fakeSession()).auth;
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(JSON.stringify({ message: 'Not signed in' }), { status: 401 })),
  );
  localStorage.setItem(ONBOARDING_STORAGE_KEY, 'true');
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.doUnmock('@/features/logs/LogsPage');
});

describe('a page that cannot load', () => {
  it('says so in the content area, keeps the shell, asks for a connection check, and loads on Try Again', async () => {
    vi.doMock('@/features/logs/LogsPage', () => {
      throw new TypeError('Failed to fetch dynamically imported module: http://localhost/assets/LogsPage-x.js');
    });
    const signals: string[] = [];
    const unsubscribe = onNetworkSignal((signal) => signals.push(signal));
    const user = userEvent.setup();
    renderApp('/logs');

    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('This page could not be loaded')).toBeInTheDocument();
    expect(alert).not.toHaveTextContent(/dynamically imported|assets|http/);
    expect(screen.queryByText('Something went wrong')).not.toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: 'Main' })).toBeInTheDocument();
    expect(screen.getByRole('main')).toContainElement(alert);
    expect(signals).toEqual(['doubt']);
    unsubscribe();

    vi.doUnmock('@/features/logs/LogsPage');
    await user.click(within(alert).getByRole('button', { name: 'Try Again' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'System Logs' })).toBeInTheDocument();
    expect(screen.queryByText('This page could not be loaded')).not.toBeInTheDocument();
  });
});
