import fs from 'node:fs/promises';
import path from 'node:path';
import { DEFAULT_FUNCTION_CODE, DEFAULT_FUNCTION_ROUTE, type TableResponse } from '@basalt/shared';
import { createClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guideSnippets } from '../packages/console/src/features/api-docs/app-guide.js';
import { createAppTable, type Developer, startDeveloper } from '../packages/server/src/testing/apps.fixtures.js';
import { users } from '../packages/server/src/testing/auth.fixtures.js';
import { deployFunction } from '../packages/server/src/testing/functions.fixtures.js';
import { startTestServer, type TestServer } from '../packages/server/src/testing/test-server.js';

// The documented snippets run as written against a real server: the README's five-minute tour (read from
// README.md itself) and the console's Documentation guide (the very function that fills the page). Only the
// documented URL is swapped for the test server's; keys come from the environment as the snippets say.

const README = path.resolve(import.meta.dirname, '../README.md');
const DOCUMENTED_URL = 'http://localhost:8787';

// supabase-js in Node without timers: the snippets' sessions stay in memory.
const quietCreateClient = (url: string, key: string) =>
  createClient(url, key, { auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false } });

const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (
  ...args: string[]
) => (...values: unknown[]) => Promise<unknown>;

/** runModule runs an ES-module snippet's body: its imports are what the scope provides, exports are plain. */
function runModule(code: string, scope: Record<string, unknown>): Promise<unknown> {
  const body = code.replace(/^import .* from '@supabase\/supabase-js';$/gm, '').replace(/^export const /gm, 'const ');
  return new AsyncFunction(...Object.keys(scope), body)(...Object.values(scope));
}

/** readmeTour is the README's supabase-js block of "A five-minute tour". */
async function readmeTour(): Promise<string> {
  const text = await fs.readFile(README, 'utf8');
  const section = text.slice(text.indexOf('## A five-minute tour'));
  const block = /```js\n([\s\S]*?)```/.exec(section)?.[1];
  if (!block) throw new Error('README has no js block in its tour');
  return block;
}

describe('the documented snippets, as written', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('sqlite');
  });
  afterAll(() => server?.close());

  async function todosOf(dev: Developer): Promise<number> {
    return createAppTable(server, dev, {
      name: 'todos',
      schema: {
        title: { type: 'text', required: true, unique: false },
        owner: { type: 'text', required: false, unique: false },
      },
      access: { select: 'own', insert: 'own', update: 'own', delete: 'own', ownerColumn: 'owner' },
    });
  }

  it("runs the README's five-minute tour", async () => {
    const dev = await startDeveloper(server, users.alice);
    await todosOf(dev);
    await deployFunction(server, dev, {
      name: 'my-function',
      code: DEFAULT_FUNCTION_CODE,
      route: DEFAULT_FUNCTION_ROUTE,
    });
    const logged: unknown[][] = [];
    const code = (await readmeTour()).replaceAll(`'${DOCUMENTED_URL}'`, JSON.stringify(server.url));
    await runModule(code, {
      createClient: quietCreateClient,
      process: { env: { APP_ANON_KEY: dev.app.anonKey } },
      console: { log: (...args: unknown[]) => logged.push(args) },
    });
    const [todos, hello] = logged.at(-1) ?? [];
    expect(todos).toEqual([expect.objectContaining({ id: 1, title: 'Buy milk', owner: expect.any(String) })]);
    expect(hello).toEqual({ message: 'Hello Ada!' });
  });

  it("runs every code snippet of the console's Documentation guide", async () => {
    const dev = await startDeveloper(server, users.bob);
    const tableId = await todosOf(dev);
    const table = (await server.request('GET', `/api/tables/${tableId}`, { headers: dev.headers }))
      .body as TableResponse;
    const snippets = guideSnippets({ url: server.url, anonKey: dev.app.anonKey, table });
    const errors: Record<string, unknown> = {};
    const logged: unknown[][] = [];
    const steps = ['signUp', 'signIn', 'session', 'select', 'count', 'insert', 'update', 'remove', 'signOut'] as const;
    // One program, as an app would hold it: the client from `connect`, then each snippet in its own block.
    const program = [
      snippets.connect,
      ...steps.map(
        (step) => `{\n${snippets[step]}\n__errors.${step} = typeof error === 'undefined' ? null : (error ?? null);\n}`,
      ),
    ].join('\n');
    await runModule(program, {
      createClient: quietCreateClient,
      __errors: errors,
      console: { log: (...args: unknown[]) => logged.push(args), error: (...args: unknown[]) => logged.push(args) },
    });
    expect(errors).toEqual(Object.fromEntries(steps.map((step) => [step, null])));
    expect(logged).toEqual([]);

    // The server-side snippet, with the service key from the environment.
    const serverErrors: Record<string, unknown> = {};
    await runModule(`${snippets.server}\n__out.users = users;\n__out.data = data;`, {
      createClient: quietCreateClient,
      process: { env: { BASALT_SERVICE_KEY: dev.app.serviceKey } },
      __out: serverErrors,
    });
    expect(serverErrors.users).toMatchObject({ users: [expect.objectContaining({ email: 'ada@example.com' })] });
    expect(Array.isArray(serverErrors.data)).toBe(true);

    // docs/data-api.md: an API key on /rest/v1 goes in Authorization, beside the instance's anon key as apikey.
    const key = (await server.request('POST', '/api/keys', { headers: dev.headers, json: { name: 'docs' } })).body.key;
    const withKey = await server.request('GET', '/rest/v1/todos?select=id,title', {
      headers: { apikey: server.anonKey, authorization: `Bearer ${key}` },
    });
    expect(withKey.status, withKey.text).toBe(200);
    expect(Array.isArray(withKey.body)).toBe(true);
    const keyAlone = await server.request('GET', '/rest/v1/todos', { headers: { apikey: key } });
    expect(keyAlone.status).toBe(401);

    // The rules snippet is the body of PATCH /api/tables/<id>.
    const rules = JSON.parse(snippets.rules.slice(snippets.rules.indexOf('{')));
    const patched = await server.request('PATCH', `/api/tables/${tableId}`, { headers: dev.headers, json: rules });
    expect(patched.status, patched.text).toBe(200);
  });
});
