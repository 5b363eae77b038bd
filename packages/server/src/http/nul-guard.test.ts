import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyHeaders, startAuthServer, users } from '../testing/auth.fixtures.js';
import { createTable, type KeyedUser, signUpWithKey } from '../testing/public-api.fixtures.js';
import { type TestServer, testDialects } from '../testing/test-server.js';

// PostgreSQL's text and jsonb cannot hold U+0000 (22021), so text with a NUL in it, in a JSON body or in the URL,
// is refused with a 400 in the shape of the API it was sent to, before any work, on both engines alike.

const NUL = '\u0000';
const COLUMNS = { title: { type: 'text' } };

/** The four error families, each with the body a refusal has in it. */
const auth = (field: string) => ({
  code: 400,
  error_code: 'validation_failed',
  msg: `${field} must not contain the NUL character (\\u0000)`,
});
const consoleBody = (field: string) => ({
  message: `${field} must not contain the NUL character (\\u0000)`,
  code: 'validation_failed',
  validationErrors: { [field]: [`${field} must not contain the NUL character (\\u0000)`] },
});
const consoleUrl = { message: 'The URL must not contain the NUL character (%00)', code: 'validation_failed' };
const restBody = (field: string) => ({
  code: '22P05',
  message: 'unsupported Unicode escape sequence',
  details: '\\u0000 cannot be converted to text.',
  hint: `Remove the NUL character from ${field}`,
});
const restUrl = {
  code: '22021',
  message: 'invalid byte sequence for encoding "UTF8": 0x00',
  details: null,
  hint: 'Remove %00 from the URL',
};

interface NulCase {
  name: string;
  method: string;
  url: string | (() => string);
  headers: () => Record<string, string>;
  json?: unknown;
  expected: Record<string, unknown>;
}

describe.each(testDialects)('text with a NUL character on %s', (dialect) => {
  let server: TestServer;
  let alice: KeyedUser;
  let tableId: number;
  beforeAll(async () => {
    server = await startAuthServer(dialect);
    alice = await signUpWithKey(server, users.alice);
    tableId = (await createTable(server, alice, 'items', COLUMNS)).id;
  });
  afterAll(() => server.close());
  const anon = () => keyHeaders(server.anonKey);
  const asAlice = () => alice.tokenHeaders;
  const asAliceRest = () => alice.headers;
  const withKey = () => alice.keyHeaders;

  const cases: NulCase[] = [
    // Auth: emails reach the accounts table.
    {
      name: 'an email on /recover',
      method: 'POST',
      url: '/auth/v1/recover',
      headers: anon,
      json: { email: `a${NUL}@example.com` },
      expected: auth('email'),
    },
    {
      name: 'an email on /token',
      method: 'POST',
      url: '/auth/v1/token?grant_type=password',
      headers: anon,
      json: { email: `a${NUL}@example.com`, password: users.alice.password },
      expected: auth('email'),
    },
    {
      name: 'an email on /verify',
      method: 'POST',
      url: '/auth/v1/verify',
      headers: anon,
      json: { type: 'recovery', email: `a${NUL}@example.com`, token: '123456' },
      expected: auth('email'),
    },
    {
      name: 'a token in the query of GET /verify',
      method: 'GET',
      url: '/auth/v1/verify?type=signup&token=a%00b',
      headers: anon,
      expected: { code: 400, error_code: 'validation_failed', msg: 'The URL must not contain the NUL character (%00)' },
    },
    {
      name: 'user metadata on PUT /user',
      method: 'PUT',
      url: '/auth/v1/user',
      headers: () => alice.headers,
      json: { data: { bio: `x${NUL}` } },
      expected: auth('data.bio'),
    },
    // Console: names and descriptions of system rows.
    {
      name: 'a key name',
      method: 'POST',
      url: '/api/keys',
      headers: asAlice,
      json: { name: `key${NUL}` },
      expected: consoleBody('name'),
    },
    {
      name: 'a table description',
      method: 'POST',
      url: '/api/tables',
      headers: asAlice,
      json: { name: 'described', description: `a${NUL}b`, schema: COLUMNS },
      expected: consoleBody('description'),
    },
    {
      name: 'a column name, as a key of the schema',
      method: 'POST',
      url: '/api/tables',
      headers: asAlice,
      json: { name: 'keyed', schema: { [`ti${NUL}tle`]: { type: 'text' } } },
      expected: consoleBody('schema'),
    },
    {
      name: 'a checkpoint name',
      method: 'POST',
      url: '/api/checkpoints',
      headers: asAlice,
      json: () => ({ tableId, name: `before${NUL}` }),
      expected: consoleBody('name'),
    },
    {
      name: 'a checkpoint description',
      method: 'POST',
      url: '/api/checkpoints',
      headers: asAlice,
      json: () => ({ tableId, name: 'before', description: `a${NUL}` }),
      expected: consoleBody('description'),
    },
    {
      name: 'a search term in the query',
      method: 'GET',
      url: '/api/activity?search=a%00b',
      headers: asAlice,
      expected: consoleUrl,
    },
    // The data API.
    {
      name: 'a table description on /rest/v1/tables',
      method: 'POST',
      url: '/rest/v1/tables',
      headers: asAliceRest,
      json: { name: 'described', description: `a${NUL}b`, schema: COLUMNS },
      expected: restBody('description'),
    },
    {
      name: 'a record value on /rest/v1',
      method: 'POST',
      url: '/rest/v1/items',
      headers: asAliceRest,
      json: { title: `a${NUL}b` },
      expected: restBody('title'),
    },
    {
      name: 'a filter value on /rest/v1',
      method: 'GET',
      url: '/rest/v1/items?title=eq.a%00b',
      headers: asAliceRest,
      expected: restUrl,
    },
    // The public record API.
    {
      name: 'a record value on /api/table',
      method: 'POST',
      url: '/api/table/items',
      headers: withKey,
      json: { title: `a${NUL}b` },
      expected: {
        error: {
          code: 'INVALID_FIELD',
          message: 'title must not contain the NUL character (\\u0000)',
          details: { title: ['title must not contain the NUL character (\\u0000)'] },
        },
      },
    },
    {
      name: 'a filter value on /api/table',
      method: 'GET',
      url: '/api/table/items?title=eq.a%00b',
      headers: withKey,
      expected: {
        error: { code: 'INVALID_QUERY', message: 'The URL must not contain the NUL character (%00)', details: null },
      },
    },
  ];

  it.each(cases)('refuses $name with 400 in its API’s shape', async (c) => {
    const json = typeof c.json === 'function' ? (c.json as () => unknown)() : c.json;
    const url = typeof c.url === 'function' ? c.url() : c.url;
    const res = await server.request(c.method, url, { headers: c.headers(), json });
    expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: c.expected });
  });

  it('changed nothing', async () => {
    const keys = await server.request('GET', '/api/keys', { headers: asAlice() });
    expect(keys.body.map((k: { name: string }) => k.name)).toEqual(['tests']);
    const tables = await server.request('GET', '/api/tables', { headers: asAlice() });
    expect(tables.body.map((t: { name: string }) => t.name)).toEqual(['items']);
    const checkpoints = await server.request('GET', `/api/checkpoints?tableId=${tableId}`, { headers: asAlice() });
    expect(checkpoints.body).toEqual([]);
    const rows = await server.request('GET', '/api/table/items', { headers: withKey() });
    expect(rows.body).toEqual([]);
  });

  it('takes an escaped backslash before u0000 as the text it is', async () => {
    const res = await server.request('POST', '/api/keys', {
      headers: { ...asAlice(), 'content-type': 'application/json' },
      body: '{"name":"a\\\\u0000b"}',
    });
    expect([res.status, res.body.name]).toEqual([201, 'a\\u0000b']);
    await server.request('DELETE', `/api/keys/${res.body.id}`, { headers: asAlice() });
  });
});
