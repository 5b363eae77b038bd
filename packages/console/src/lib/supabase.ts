import { CONSOLE_CLIENT_HEADER } from '@basalt/shared';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { fetchReportingLoss } from './network-signals';

// The console talks to Basalt's Supabase-compatible API with the official client, on the page's own origin.
// The anon key comes from GET /api/config, so the client is created once that answer is in (see main.tsx).

let client: SupabaseClient | null = null;

// Must match RESET_PASSWORD_PATH (features/auth): lib does not import from features.
const RESET_PASSWORD_PATH = '/reset-password';

/**
 * A reset link lands wherever the server sent it (its SITE_URL when this origin is not its own). Before the
 * client reads the session from the URL, a recovery landing moves to the reset page: supabase-js announces
 * PASSWORD_RECOVERY once, possibly before the console listens, and the person must not end on the Dashboard.
 */
function routeRecoveryLanding(): void {
  const fragment = new URLSearchParams(window.location.hash.slice(1));
  if (fragment.get('type') === 'recovery' && window.location.pathname !== RESET_PASSWORD_PATH) {
    window.history.replaceState(window.history.state, '', `${RESET_PASSWORD_PATH}${window.location.hash}`);
  }
}

/** initSupabase creates the client for this origin with the instance's anon key. */
export function initSupabase(anonKey: string): SupabaseClient {
  routeRecoveryLanding();
  // Default auth options: session in localStorage, automatic refresh, session detected in the URL. Its
  // requests tell the connection monitor when they cannot reach the server, as the console API's do, and carry
  // the console's mark: its own calls are not the account's API usage (docs/billing.md).
  client = createClient(window.location.origin, anonKey, {
    global: { fetch: fetchReportingLoss, headers: { [CONSOLE_CLIENT_HEADER]: '1' } },
  });
  return client;
}

/** getSupabase returns the client; it exists once the console config has loaded. */
export function getSupabase(): SupabaseClient {
  if (!client) throw new Error('The Supabase client was used before /api/config was loaded');
  return client;
}
