import type { AppInfo } from '@basalt/shared';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { signUpUser, type TestUser } from './auth.fixtures.js';
import type { TestServer } from './test-server.js';

// Fixtures of the apps suites: a developer (a console account) with their app's keys, and end users of that app
// signed up through the unmodified supabase-js with the app's anon key, as a real app would.

/** Developer is a console account with its app: raw-HTTP headers for /api and the app's keys. */
export interface Developer {
  id: string;
  accessToken: string;
  /** Instance anon key + the developer's bearer token: the console's own calls. */
  headers: Record<string, string>;
  /** The developer's supabase-js client (instance anon key, signed in): sees every row of their tables. */
  client: SupabaseClient;
  app: AppInfo;
}

/** EndUser is a user of an app, signed in with supabase-js and the app's anon key. */
export interface EndUserClient {
  id: string;
  email: string;
  accessToken: string;
  client: SupabaseClient;
  /** The app's anon key + the user's bearer token, for raw HTTP. */
  headers: Record<string, string>;
}

/** appClient is a supabase-js client with a key (no stored session, no timers). */
export function appClient(server: TestServer, key: string): SupabaseClient {
  return createClient(server.url, key, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
  });
}

/** startDeveloper signs a console account up and reads its app (GET /api/app). */
export async function startDeveloper(server: TestServer, user: TestUser): Promise<Developer> {
  const signed = await signUpUser(server, user);
  const res = await server.request('GET', '/api/app', { headers: signed.headers });
  if (res.status !== 200) throw new Error(`GET /api/app failed: ${res.status} ${res.text}`);
  const client = appClient(server, server.anonKey);
  const { error } = await client.auth.signInWithPassword({ email: user.email, password: user.password });
  if (error) throw new Error(`developer sign-in failed: ${error.message}`);
  return { id: signed.id, accessToken: signed.accessToken, headers: signed.headers, client, app: res.body };
}

/** keysOf are the headers supabase-js sends with a key and no session. */
export const appKeyHeaders = (key: string) => ({ apikey: key, authorization: `Bearer ${key}` });

/** signUpEndUser signs an end user up to the developer's app through supabase-js. */
export async function signUpEndUser(
  server: TestServer,
  developer: Developer,
  email: string,
  password = 'End-User-Passw0rd!',
): Promise<EndUserClient> {
  const client = appClient(server, developer.app.anonKey);
  const { data, error } = await client.auth.signUp({ email, password });
  if (error || !data.session || !data.user) throw new Error(`end-user sign-up of ${email} failed: ${error?.message}`);
  return {
    id: data.user.id,
    email,
    accessToken: data.session.access_token,
    client,
    headers: { apikey: developer.app.anonKey, authorization: `Bearer ${data.session.access_token}` },
  };
}

/** createAppTable creates a table of the developer's (POST /api/tables) with access rules, and returns its id. */
export async function createAppTable(
  server: TestServer,
  developer: Developer,
  body: { name: string; schema: Record<string, unknown>; access?: Record<string, unknown> },
): Promise<number> {
  const res = await server.request('POST', '/api/tables', { headers: developer.headers, json: body });
  if (res.status !== 201) throw new Error(`creating ${body.name} failed: ${res.status} ${res.text}`);
  return res.body.id;
}

/** defineSqlFunctions defines SQL functions of the developer's (POST /api/functions/sql); any refusal fails. */
export async function defineSqlFunctions(
  server: TestServer,
  developer: Developer,
  fns: Array<{ name: string } & Record<string, unknown>>,
): Promise<void> {
  for (const fn of fns) {
    const res = await server.request('POST', '/api/functions/sql', { headers: developer.headers, json: fn });
    if (res.status !== 201) throw new Error(`defining ${fn.name} failed: ${res.status} ${res.text}`);
  }
}

/** ADD_THEM is a SQL function anyone may call: add_them(a, b) → a + b. */
export const ADD_THEM = {
  name: 'add_them',
  params: [
    { name: 'a', type: 'number' },
    { name: 'b', type: 'number' },
  ],
  returns: { kind: 'scalar', type: 'number' },
  body: 'SELECT :a + :b',
  callRule: 'public',
};

/** OWN_ROWS are access rules under which each end user has only their own rows (owner column `owner`). */
export const OWN_ROWS = { select: 'own', insert: 'own', update: 'own', delete: 'own', ownerColumn: 'owner' };

/**
 * createSampleTables gives a developer's app the tables the apps suites share: `todos` (each user's own rows),
 * `notices` (anyone reads), `recipes` (no rules: the developer's alone), `inbox` (anyone writes, nobody reads) and
 * `board` (signed-in users read and write). Returns the id of `todos`.
 */
export async function createSampleTables(server: TestServer, developer: Developer): Promise<number> {
  const todosId = await createAppTable(server, developer, {
    name: 'todos',
    schema: { title: { type: 'text', required: true }, done: { type: 'boolean' }, owner: { type: 'text' } },
    access: OWN_ROWS,
  });
  const tables = [
    { name: 'notices', access: { select: 'public', insert: 'nobody', update: 'nobody', delete: 'nobody' } },
    { name: 'recipes' },
    { name: 'inbox', access: { select: 'nobody', insert: 'public', update: 'nobody', delete: 'nobody' } },
    {
      name: 'board',
      access: { select: 'authenticated', insert: 'authenticated', update: 'nobody', delete: 'nobody' },
    },
  ];
  for (const table of tables) {
    await createAppTable(server, developer, { ...table, schema: { body: { type: 'text' } } });
  }
  return todosId;
}
