import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ONBOARDING_STORAGE_KEY } from '@/features/onboarding/onboarding-storage';
import { createFakeAuth, fakeSession } from '@/test/fake-auth';
import { createFakeBackend, json } from '@/test/fake-backend';
import { renderApp, testConfig } from '@/test/render-app';

// Where apps reach the server, as every page shows it (issue 35: the API page said localhost, the docs pages
// 127.0.0.1): SITE_URL when the server has one, else the address the console was opened at — never a mix.

const holder = vi.hoisted(() => ({ client: null as unknown }));
vi.mock('@/lib/supabase', () => ({ getSupabase: () => holder.client }));

const app = {
  ref: 'abc',
  // The server's default SITE_URL, which the person did not open the console at.
  url: 'http://localhost:8787',
  anonKey: 'anon',
  serviceKey: 'service',
  settings: {
    signupsAllowed: true,
    emailConfirmation: false,
    siteUrl: null,
    redirectUrls: [],
    accessTokenLifetime: 3600,
    anonymousSignIns: false,
    mfaEnabled: false,
    passwordReauthentication: false,
    passwordMinLength: 6,
    passwordRequiredCharacters: 'none',
    providers: [],
  },
};

function serve() {
  const backend = createFakeBackend({
    'GET /api/keys': () => json(200, []),
    'GET /api/app': () => json(200, app),
    'GET /rest/v1/tables': () => json(200, []),
  });
  vi.stubGlobal('fetch', vi.fn(backend.fetch));
  holder.client = { auth: createFakeAuth(fakeSession()).auth, from: () => null };
}

beforeEach(() => localStorage.setItem(ONBOARDING_STORAGE_KEY, 'true'));
afterEach(() => vi.unstubAllGlobals());

describe('the app URL', () => {
  it('is the address the console was opened at on the API page and the docs when SITE_URL is unset', async () => {
    serve();
    renderApp('/api');
    const url = await screen.findByLabelText('URL');
    expect(url).toHaveValue(window.location.origin);
    expect(window.location.origin).not.toBe(app.url);
  });

  it('is the OAuth callback and the mail-link default shown on the API page when SITE_URL is unset', async () => {
    serve();
    renderApp('/api');
    const callback = `${window.location.origin}/auth/v1/callback`;
    await waitFor(() => expect(document.body.textContent).toContain(callback));
    expect(document.body.textContent).not.toContain(`${app.url}/auth/v1/callback`);
    expect(document.body.textContent).toContain(`Where mail links lead by default. Empty: ${window.location.origin}`);
  });

  it('is SITE_URL on every page when the server has one', async () => {
    serve();
    const config = { ...testConfig, siteUrl: 'https://api.example.com' };
    const { unmount } = renderApp('/api', config);
    expect(await screen.findByLabelText('URL')).toHaveValue('https://api.example.com');
    unmount();
    renderApp('/api?tab=documentation', config);
    await waitFor(() => expect(document.body.textContent).toContain('https://api.example.com/api/table/customers'));
    expect(document.body.textContent).not.toContain(window.location.origin);
  }, 15_000);
});
