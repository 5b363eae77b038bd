import { DEFAULT_FUNCTION_CODE, type EdgeFunction } from '@basalt/shared';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ONBOARDING_STORAGE_KEY } from '@/features/onboarding/onboarding-storage';
import { createFakeAuth, fakeSession } from '@/test/fake-auth';
import { createFakeBackend, type FakeRoute, json } from '@/test/fake-backend';
import { renderApp } from '@/test/render-app';
import { codePreview } from './FunctionCard';

// /edge-functions against a fake server: tabs, cards (badge, route, preview, Last deployed), deploy and its toasts.

const holder = vi.hoisted(() => ({ client: null as unknown }));
vi.mock('@/lib/supabase', () => ({ getSupabase: () => holder.client }));

const active: EdgeFunction = {
  id: 1,
  name: 'hello',
  code: DEFAULT_FUNCTION_CODE,
  route: '/api/edge/hello',
  isActive: true,
  verifyJwt: true,
  lastDeployed: null,
  deployedVersion: null,
  createdAt: '2026-03-05T10:00:00.000Z',
  updatedAt: '2026-03-05T10:00:00.000Z',
};
const inactive: EdgeFunction = { ...active, id: 2, name: 'cleanup', route: '/api/edge/cleanup', isActive: false };

function serve(routes: Record<string, FakeRoute>) {
  const backend = createFakeBackend(routes);
  vi.stubGlobal('fetch', vi.fn(backend.fetch));
  holder.client = { auth: createFakeAuth(fakeSession()).auth, from: () => null };
  return backend;
}

beforeEach(() => localStorage.setItem(ONBOARDING_STORAGE_KEY, 'true'));
afterEach(() => vi.unstubAllGlobals());

describe('Edge Functions page', () => {
  it('previews the first 150 characters of the code', () => {
    expect(codePreview('x'.repeat(200))).toBe(`${'x'.repeat(150)}…`);
    expect(codePreview('short')).toBe('short');
  });

  it('shows cards under All Functions, Active and Inactive, and the empty text', async () => {
    const deployed = {
      ...active,
      id: 3,
      name: 'live',
      route: '/api/edge/live',
      lastDeployed: '2026-03-05T11:00:00.000Z',
    };
    serve({ 'GET /api/edge-functions': () => json(200, [active, inactive, deployed]) });
    const user = userEvent.setup();
    renderApp('/edge-functions');
    const card = await screen.findByRole('article', { name: 'Edge function hello' });
    // Active but never deployed: its route answers 404 until Deploy, and the badge says so.
    expect(within(card).getByText('Not deployed')).toBeInTheDocument();
    expect(within(card).queryByText('Active')).toBeNull();
    const live = screen.getByRole('article', { name: 'Edge function live' });
    expect(within(live).getByText('Active')).toBeInTheDocument();
    expect(within(card).getByText('/api/edge/hello')).toBeInTheDocument();
    expect(within(card).getByText('Last deployed: Never')).toBeInTheDocument();
    expect(['Edit', 'Deploy', 'Delete hello'].every((name) => within(card).getByRole('button', { name }))).toBe(true);
    expect(screen.getByRole('article', { name: 'Edge function cleanup' })).toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: 'Active' }));
    expect(screen.queryByRole('article', { name: 'Edge function cleanup' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: 'Inactive' }));
    expect(screen.queryByRole('article', { name: 'Edge function hello' })).not.toBeInTheDocument();
  });

  it('says "No edge functions found" without functions', async () => {
    serve({ 'GET /api/edge-functions': () => json(200, []) });
    renderApp('/edge-functions');
    expect(await screen.findByText('No edge functions found')).toBeInTheDocument();
  });

  it('deploys with a success toast, and shows the server message when a deploy fails', async () => {
    let fails = false;
    serve({
      'GET /api/edge-functions': () => json(200, [active]),
      'POST /api/edge-functions/1/deploy': () =>
        fails
          ? json(400, { message: 'Line 3, column 1: Expected ")" but found "}"', code: 'function_build_failed' })
          : json(200, { ...active, deployedVersion: 1, lastDeployed: '2026-03-05T11:00:00.000Z' }),
    });
    const user = userEvent.setup();
    renderApp('/edge-functions');
    const card = await screen.findByRole('article', { name: 'Edge function hello' });
    await user.click(within(card).getByRole('button', { name: 'Deploy' }));
    expect(await screen.findByText('Edge function deployed')).toBeInTheDocument();
    fails = true;
    await user.click(within(card).getByRole('button', { name: 'Deploy' }));
    expect(await screen.findByText('Failed to deploy edge function')).toBeInTheDocument();
    expect(screen.getByText('Line 3, column 1: Expected ")" but found "}"')).toBeInTheDocument();
  });
});
