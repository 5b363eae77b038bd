import { expect } from 'vitest';
import type { DialectName } from '../db/dialect/dialect.js';
import { type SignedInTestUser, signUpUser, startAuthServer, type TestUser, users } from './auth.fixtures.js';
import type { TestServer } from './test-server.js';

// Named accounts with an API key and an `items` table, for the public API suites.

/** KeyedUser is a signed-up user with an API key and the headers of each credential. */
export interface KeyedUser extends SignedInTestUser {
  apiKey: string;
  /** Bearer API-key headers. */
  keyHeaders: Record<string, string>;
  /** Bearer user-token headers. */
  tokenHeaders: Record<string, string>;
}

/** ITEMS_SCHEMA is the `items` table of the suites: one column of each kind that matters here. */
export const ITEMS_SCHEMA = {
  name: { type: 'text', required: true },
  qty: { type: 'number' },
  done: { type: 'boolean' },
  sku: { type: 'text', unique: true },
  tags: { type: 'array' },
  meta: { type: 'json' },
};

async function ok(res: Promise<{ status: number; text: string; body: unknown }>, what: string) {
  const done = await res;
  if (done.status >= 300) throw new Error(`${what} failed: ${done.status} ${done.text}`);
  // biome-ignore lint/suspicious/noExplicitAny: fixtures hand JSON bodies to tests.
  return done.body as any;
}

/** publicError is the shape of a public API error body with this code (and message, when given). */
export const publicError = (code: string, message?: string | RegExp) => ({
  error: {
    code,
    message: message instanceof RegExp ? expect.stringMatching(message) : (message ?? expect.any(String)),
  },
});

/** signUpWithKey signs a user up and creates an API key for them. */
export async function signUpWithKey(server: TestServer, user: TestUser): Promise<KeyedUser> {
  const signed = await signUpUser(server, user);
  const tokenHeaders = { authorization: `Bearer ${signed.accessToken}` };
  const created = await ok(
    server.request('POST', '/api/keys', { headers: tokenHeaders, json: { name: 'tests' } }),
    'key',
  );
  return { ...signed, apiKey: created.key, keyHeaders: { authorization: `Bearer ${created.key}` }, tokenHeaders };
}

/** createTable creates a table for a user through the console API. */
export function createTable(server: TestServer, user: KeyedUser, name: string, schema: object = ITEMS_SCHEMA) {
  return ok(
    server.request('POST', '/api/tables', { headers: user.tokenHeaders, json: { name, schema } }),
    `table ${name}`,
  );
}

/** seedItems creates `count` items through the public API: item i has qty i·10, done when i is even. */
export async function seedItems(server: TestServer, user: KeyedUser, table: string, count: number): Promise<void> {
  for (let i = 1; i <= count; i++) {
    await ok(
      server.request('POST', `/api/table/${table}`, {
        headers: user.keyHeaders,
        json: {
          name: `item ${i}`,
          qty: i * 10,
          done: i % 2 === 0,
          sku: `SKU-${i}`,
          tags: [`t${i % 3}`],
          meta: { n: i },
        },
      }),
      `item ${i}`,
    );
  }
}

/** startItemsServer starts a server with alice (and her key) and `seeded` items in her `items` table. */
export async function startItemsServer(
  dialect: DialectName,
  seeded: number,
): Promise<{ server: TestServer; alice: KeyedUser }> {
  const server = await startAuthServer(dialect);
  const alice = await signUpWithKey(server, users.alice);
  await createTable(server, alice, 'items');
  await seedItems(server, alice, 'items', seeded);
  return { server, alice };
}
