import type { ConsoleSession } from './console-server.js';

// The signed-in developer's app, reached through the server's own APIs: its keys, and end users made through
// its /auth/v1 as a real app would make them.

/** AppKeys are a developer's app URL and keys (GET /api/app). */
export interface AppKeys {
  url: string;
  anonKey: string;
  serviceKey: string;
  settings: Record<string, unknown>;
}

/** appOf reads the developer's app. */
export async function appOf(session: ConsoleSession, token: string): Promise<AppKeys> {
  const res = await fetch(`${session.server.url}/api/app`, { headers: { Authorization: `Bearer ${token}` } });
  if (!res.ok) throw new Error(`GET /api/app → ${res.status}`);
  return (await res.json()) as AppKeys;
}

/** signUpEndUser signs an end user up to the app (autoconfirm: no SMTP) and returns their id and token. */
export async function signUpEndUser(
  session: ConsoleSession,
  app: AppKeys,
  email: string,
  username?: string,
): Promise<{ id: string; token: string }> {
  const res = await fetch(`${session.server.url}/auth/v1/signup`, {
    method: 'POST',
    headers: { apikey: app.anonKey, 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password: 'End-User-Passw0rd!', data: username ? { username } : {} }),
  });
  const body = (await res.json()) as { user?: { id: string }; access_token?: string };
  if (!res.ok || !body.user || !body.access_token) throw new Error(`sign-up of ${email} → ${res.status}`);
  return { id: body.user.id, token: body.access_token };
}
