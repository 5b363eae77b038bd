import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import * as OTPAuth from 'otpauth';
import { signUpUser, type TestUser } from './auth.fixtures.js';
import type { TestServer } from './test-server.js';

// Fixtures of the auth-protocol suites (magic links, invites, anonymous users, MFA, OAuth): every flow runs for the
// console accounts (the instance's keys) and for an app's end users (the app's keys), through the unmodified
// supabase-js.

/** AuthPoolUnderTest is one user pool as a client sees it: its keys, and how its settings change. */
export interface AuthPoolUnderTest {
  name: 'console accounts' | 'app users';
  anonKey: string;
  serviceKey: string;
  /** The app's ref (app users only): mail links and /authorize name it. */
  ref: string | null;
  /** patchSettings changes the app's settings (PATCH /api/app); console accounts have none to change. */
  patchSettings(settings: Record<string, unknown>): Promise<void>;
}

/** memoryStorage is a supabase-js storage in memory (the PKCE verifier lives there between calls). */
export function memoryStorage() {
  const items = new Map<string, string>();
  return {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
  };
}

/** authClient is a supabase-js client for a key; `pkce` switches it to the PKCE flow (with a memory storage). */
export function authClient(server: TestServer, key: string, options: { pkce?: boolean } = {}): SupabaseClient {
  return createClient(server.url, key, {
    auth: {
      autoRefreshToken: false,
      detectSessionInUrl: false,
      ...(options.pkce
        ? { flowType: 'pkce' as const, persistSession: true, storage: memoryStorage() }
        : { persistSession: false }),
    },
  });
}

/** poolsUnderTest signs up a developer (a console account) and returns both pools of the server. */
export async function poolsUnderTest(server: TestServer, developer: TestUser): Promise<AuthPoolUnderTest[]> {
  const dev = await signUpOrSignIn(server, developer);
  const res = await server.request('GET', '/api/app', { headers: dev });
  if (res.status !== 200) throw new Error(`GET /api/app failed: ${res.status} ${res.text}`);
  return [
    {
      name: 'console accounts',
      anonKey: server.anonKey,
      serviceKey: server.serviceKey,
      ref: null,
      patchSettings: async () => {
        throw new Error('console accounts have no settings to change');
      },
    },
    {
      name: 'app users',
      anonKey: res.body.anonKey,
      serviceKey: res.body.serviceKey,
      ref: res.body.ref,
      async patchSettings(settings) {
        const patched = await server.request('PATCH', '/api/app', { headers: dev, json: { settings } });
        if (patched.status !== 200) throw new Error(`PATCH /api/app failed: ${patched.status} ${patched.text}`);
      },
    },
  ];
}

// With confirmation on (SMTP), a developer signs up, confirms by the admin API and signs in.
async function signUpOrSignIn(server: TestServer, user: TestUser): Promise<Record<string, string>> {
  if (!server.config.smtpUrl) return (await signUpUser(server, user)).headers;
  const admin = await server.request('POST', '/auth/v1/admin/users', {
    headers: { apikey: server.serviceKey, authorization: `Bearer ${server.serviceKey}` },
    json: {
      email: user.email,
      password: user.password,
      email_confirm: true,
      user_metadata: { username: user.username },
    },
  });
  if (admin.status !== 200) throw new Error(`admin create of ${user.email} failed: ${admin.status} ${admin.text}`);
  const signIn = await server.request('POST', '/auth/v1/token?grant_type=password', {
    headers: { apikey: server.anonKey },
    json: { email: user.email, password: user.password },
  });
  return { apikey: server.anonKey, authorization: `Bearer ${signIn.body.access_token}` };
}

/** totpCode is the code an authenticator app shows for a secret, `steps` periods from now. */
export function totpCode(secret: string, steps = 0): string {
  const totp = new OTPAuth.TOTP({
    algorithm: 'SHA1',
    digits: 6,
    period: 30,
    secret: OTPAuth.Secret.fromBase32(secret),
  });
  return totp.generate({ timestamp: Date.now() + steps * 30_000 });
}

/** fragmentOf reads the parameters of a URL's fragment. */
export const fragmentOf = (url: URL) => Object.fromEntries(new URLSearchParams(url.hash.slice(1)));

/**
 * followRedirects opens a URL and follows its redirects with a cookie jar (as a browser would) until `stop` says a
 * Location is where the browser would land (the app's page); returns it. `seen` collects every URL opened.
 */
export async function followRedirects(
  start: string,
  stop: (url: URL) => boolean,
  seen: string[] = [],
  jar = new Map<string, string>(),
): Promise<URL> {
  let url = start;
  for (let hop = 0; hop < 20; hop++) {
    const target = new URL(url);
    if (stop(target)) return target;
    seen.push(url);
    const cookie = [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await fetch(url, { redirect: 'manual', headers: cookie ? { cookie } : {} });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair?.indexOf('=') ?? -1;
      if (pair && at > 0) jar.set(pair.slice(0, at), pair.slice(at + 1));
    }
    const location = res.headers.get('location');
    if (!location) throw new Error(`${url} answered ${res.status} without a redirect: ${await res.text()}`);
    url = new URL(location, url).toString();
  }
  throw new Error(`too many redirects from ${start}`);
}
