import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { act, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, expect, vi } from 'vitest';
import { ONBOARDING_STORAGE_KEY } from '@/features/onboarding/onboarding-storage';
import { createFakeBackend, FAKE_ORIGIN, type FakeRoute } from '@/test/fake-backend';
import { createFakeAuth, fakeSession } from './fake-auth';

// A signed-in console against a fake Basalt server, for suites that render the app's routes. A suite points the
// console's Supabase client here, registers the hooks, and serves each test its routes:
//
//   vi.mock('@/lib/supabase', () => import('@/test/fake-server'));
//   setUpFakeServerSuite();
//   it('…', () => { serveFake({ 'GET /api/logs': () => json(200, []) }); renderApp('/logs'); … });

let client: unknown = null;
let data: SupabaseClient | null = null;

// One supabase-js data client for the suite (each would start its own auth client, and supabase-js warns about
// several): its fetch looks the global one up on every call, so it reaches the routes of the test running.
const dataClient = () =>
  (data ??= createClient(FAKE_ORIGIN, 'anon-key', {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    global: { fetch: (input, init) => fetch(input, init) },
  }));

/** getSupabase stands in for '@/lib/supabase': the client of the last serveFake. */
export function getSupabase(): unknown {
  return client;
}

/**
 * serveFake answers the console's fetches from `routes` (unmatched ones 404) and signs a fake user in. The
 * client's `from()` is the real supabase-js, so its /rest/v1 calls reach the same routes. It returns the
 * backend (to find the requests it answered) and the fake auth client (to spy on).
 */
export function serveFake(routes: Record<string, FakeRoute>) {
  const backend = createFakeBackend(routes);
  vi.stubGlobal('fetch', vi.fn(backend.fetch));
  const { auth } = createFakeAuth(fakeSession());
  client = { auth, from: (table: string) => dataClient().from(table) };
  return { ...backend, auth };
}

/** pending is a route that never answers, to hold a page in its loading state. */
export const pending = () => new Promise<Response>(() => {});

/** setUpFakeServerSuite registers a suite's hooks: onboarding already done before each test, the real fetch after. */
export function setUpFakeServerSuite(): void {
  beforeEach(() => localStorage.setItem(ONBOARDING_STORAGE_KEY, 'true'));
  afterEach(() => vi.unstubAllGlobals());
}

/**
 * expectFetchedEvery checks that a polled route is asked again once `periodMs` has passed, and not a second
 * before. The test must run on fake timers (vi.useFakeTimers({ shouldAdvanceTime: true })).
 */
export async function expectFetchedEvery(
  backend: ReturnType<typeof serveFake>,
  method: string,
  path: string,
  periodMs: number,
): Promise<void> {
  const before = backend.find(method, path).length;
  await act(() => vi.advanceTimersByTimeAsync(periodMs - 1_000));
  expect(backend.find(method, path)).toHaveLength(before);
  await act(() => vi.advanceTimersByTimeAsync(1_500));
  await waitFor(() => expect(backend.find(method, path)).toHaveLength(before + 1));
}
