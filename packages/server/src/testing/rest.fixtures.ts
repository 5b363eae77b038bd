import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import type { DialectName } from '../db/dialect/dialect.js';
import { runScenario, startAuthServer, type TestUser, users } from './auth.fixtures.js';
import { ITEMS_SCHEMA } from './records.fixtures.js';
import type { TestServer } from './test-server.js';

// Fixtures of the /rest/v1 suites: a server, users signed up through supabase-js itself (so every REST call
// carries a real access token), and a `todos` table with one column of every type, created through
// `/rest/v1/tables` as the console does.

/** RestUser is a signed-up user with their own supabase-js client and raw-HTTP headers. */
export interface RestUser {
  accountId: string;
  accessToken: string;
  client: SupabaseClient;
  /** apikey + bearer, for raw HTTP requests as this user. */
  headers: Record<string, string>;
}

/** TODOS_SCHEMA has one column of every type, a required unique title and a second unique column, code. */
export const TODOS_SCHEMA = { ...ITEMS_SCHEMA, code: { type: 'text', unique: true } } as const;

/** TODOS are the rows the read suites filter: nulls, mixed case, JSON and arrays, a `%` and a `_`. */
export const TODOS = [
  {
    title: 'Apple',
    qty: 5,
    done: true,
    due: '2025-01-01',
    meta: { a: 1, b: { c: 2 } },
    tags: ['red', 'fruit'],
    note: 'crisp',
    code: 'A1',
  },
  {
    title: 'banana',
    qty: 12,
    done: false,
    due: '2025-02-01',
    meta: { a: 2 },
    tags: ['yellow', 'fruit'],
    note: null,
    code: 'B2',
  },
  { title: 'Cherry pie', qty: null, done: null, due: null, meta: null, tags: [], note: 'sweet, tart', code: 'C3' },
  {
    title: 'date 100%',
    qty: 9,
    done: true,
    due: '2025-03-01',
    meta: { a: 1 },
    tags: ['brown'],
    note: 'x_y',
    code: null,
  },
];

/** startRestServer starts a test server whose auth rate limits will not get in a suite's way. */
export const startRestServer = (dialect: DialectName) => startAuthServer(dialect);

/** restClient is a supabase-js client for the server, without stored sessions or timers. */
export function restClient(server: TestServer, key = server.anonKey): SupabaseClient {
  return createClient(server.url, key, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
  });
}

/** signUpRestUser signs a user up through supabase-js; the client then sends the user's token on /rest/v1. */
export async function signUpRestUser(server: TestServer, user: TestUser = users.alice): Promise<RestUser> {
  const client = restClient(server);
  const { data, error } = await client.auth.signUp({ email: user.email, password: user.password });
  if (error || !data.session || !data.user) throw new Error(`sign-up of ${user.email} failed: ${error?.message}`);
  const accessToken = data.session.access_token;
  return {
    accountId: data.user.id,
    accessToken,
    client,
    headers: { apikey: server.anonKey, authorization: `Bearer ${accessToken}` },
  };
}

/** createRestTable creates a table through `/rest/v1/tables` as the console does and returns its definition. */
export async function createRestTable(
  user: RestUser,
  name: string,
  schema: Record<string, unknown> = TODOS_SCHEMA,
): Promise<{ id: number; name: string }> {
  const { data, error } = await user.client
    .from('tables')
    .insert({ name, description: null, schema })
    .select()
    .single();
  if (error || !data) throw new Error(`creating table ${name} failed: ${error?.message}`);
  return data;
}

/** seedTodos creates a todos table under a name and inserts TODOS. */
export async function seedTodos(user: RestUser, name: string): Promise<Array<Record<string, unknown>>> {
  await createRestTable(user, name);
  const { data, error } = await user.client.from(name).insert(TODOS).select();
  if (error || !data) throw new Error(`seeding ${name} failed: ${error?.message}`);
  return data;
}

/** startSeededRestServer starts a server with alice signed up and TODOS in her table `table`: most suites' start. */
export async function startSeededRestServer(
  dialect: DialectName,
  table: string,
): Promise<{ server: TestServer; alice: RestUser }> {
  const server = await startRestServer(dialect);
  const alice = await signUpRestUser(server);
  await seedTodos(alice, table);
  return { server, alice };
}

/** RestScenario is one row of a table-driven raw-HTTP test (PocketBase's ApiScenario). */
export interface RestScenario {
  name: string;
  method: string;
  url: string;
  /** Headers replacing the signed-in user's (a function: computed once the suite has its tokens). */
  headers?: () => Record<string, string>;
  /** Headers added to the user's. */
  extraHeaders?: Record<string, string>;
  json?: unknown;
  body?: string;
  status: number;
  /** The whole body, exactly; undefined for none. */
  expected?: unknown;
  expectedHeaders?: Record<string, string>;
}

/** pgrst is a PostgREST error body, all four keys present. */
export const pgrst = (code: string, message: string, details: string | null = null, hint: string | null = null) => ({
  code,
  details,
  hint,
  message,
});

/** runRestScenario sends a scenario as the user (runScenario) and checks status, the exact body and headers. */
export async function runRestScenario(server: TestServer, user: RestUser, scenario: RestScenario): Promise<void> {
  await runScenario(server, {
    ...scenario,
    headers: { ...(scenario.headers ? scenario.headers() : user.headers), ...scenario.extraHeaders },
    expected: undefined,
    expectedBody: scenario.expected ?? null,
  });
}
