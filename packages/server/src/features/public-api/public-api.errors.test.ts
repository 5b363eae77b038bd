import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestServer, testDialects } from '../../testing/test-server.js';
import { type ApiScenario, runScenario, startAuthServer, users } from '../auth/auth.fixtures.js';
import { createTable, type KeyedUser, publicError, seedItems, signUpWithKey } from './public-api.fixtures.js';

// Every error of the public record API, as {error: {code, message, details}}: 401 (missing or invalid key),
// 403, 404 (table, record), 400 (the body, the query) with per-field details, and 409.

describe.each(testDialects)('public record API errors on %s', (dialect) => {
  let server: TestServer;
  let alice: KeyedUser;

  beforeAll(async () => {
    server = await startAuthServer(dialect);
    alice = await signUpWithKey(server, users.alice);
    await createTable(server, alice, 'items');
    await seedItems(server, alice, 'items', 1);
  });
  afterAll(() => server.close());

  const asAlice = () => alice.keyHeaders;
  const noKey = {};
  const unknownKey = () => ({ authorization: `Bearer bsk_${'x'.repeat(43)}` });
  const scenarios: ApiScenario[] = [
    // 401
    {
      name: 'no credentials',
      method: 'GET',
      url: '/api/table/items',
      headers: noKey,
      status: 401,
      expected: { error: { code: 'UNAUTHORIZED', message: 'Missing or invalid API key', details: null } },
      expectedHeaders: { 'www-authenticate': 'Bearer' },
    },
    {
      name: 'an unknown key',
      method: 'GET',
      url: '/api/table/items',
      headers: unknownKey,
      status: 401,
      expected: publicError('INVALID_API_KEY', 'Missing or invalid API key'),
    },
    {
      name: 'a malformed key',
      method: 'GET',
      url: '/api/table/items',
      headers: { authorization: 'Bearer bsk_nope' },
      status: 401,
      expected: publicError('INVALID_API_KEY'),
    },
    {
      name: 'a garbage bearer',
      method: 'GET',
      url: '/api/table/items',
      headers: { authorization: 'Bearer garbage' },
      status: 401,
      expected: publicError('INVALID_TOKEN', 'Missing or invalid API key'),
    },
    {
      name: 'the anon key',
      method: 'GET',
      url: '/api/table/items',
      headers: () => ({ authorization: `Bearer ${server.anonKey}` }),
      status: 401,
      expected: publicError('UNAUTHORIZED'),
    },
    {
      name: 'no credentials on create',
      method: 'POST',
      url: '/api/table/items',
      headers: noKey,
      json: { name: 'x' },
      status: 401,
    },
    {
      name: 'no credentials, short form',
      method: 'DELETE',
      url: '/api/items/1',
      headers: noKey,
      status: 401,
      expected: publicError('UNAUTHORIZED'),
    },
    // 403
    {
      name: 'the service key (no account)',
      method: 'GET',
      url: '/api/table/items',
      headers: () => ({ authorization: `Bearer ${server.serviceKey}` }),
      status: 403,
      expected: publicError('FORBIDDEN'),
    },
    // 404
    {
      name: 'an unknown table',
      method: 'GET',
      url: '/api/table/nothing',
      headers: asAlice,
      status: 404,
      expected: { error: { code: 'TABLE_NOT_FOUND', message: "Table 'nothing' not found", details: null } },
    },
    {
      name: 'an unknown table, short form',
      method: 'POST',
      url: '/api/nothing',
      headers: asAlice,
      json: { a: 1 },
      status: 404,
      expected: publicError('TABLE_NOT_FOUND'),
    },
    {
      name: 'an unknown record',
      method: 'GET',
      url: '/api/table/items/99999',
      headers: asAlice,
      status: 404,
      expected: publicError('RECORD_NOT_FOUND'),
    },
    {
      name: 'a non-numeric id',
      method: 'GET',
      url: '/api/table/items/abc',
      headers: asAlice,
      status: 404,
      expected: publicError('RECORD_NOT_FOUND'),
    },
    { name: 'id 0', method: 'PATCH', url: '/api/table/items/0', headers: asAlice, json: { qty: 1 }, status: 404 },
    {
      name: 'update an unknown record',
      method: 'PUT',
      url: '/api/table/items/99999',
      headers: asAlice,
      json: { name: 'x' },
      status: 404,
      expected: publicError('RECORD_NOT_FOUND'),
    },
    {
      name: 'patch an unknown record',
      method: 'PATCH',
      url: '/api/table/items/99999',
      headers: asAlice,
      json: { qty: 1 },
      status: 404,
    },
    {
      name: 'delete an unknown record',
      method: 'DELETE',
      url: '/api/table/items/99999',
      headers: asAlice,
      status: 404,
      expected: publicError('RECORD_NOT_FOUND'),
    },
    // 400: the body
    {
      name: 'malformed JSON',
      method: 'POST',
      url: '/api/table/items',
      headers: () => ({ ...asAlice(), 'content-type': 'application/json' }),
      body: '{"name": ',
      status: 400,
      expected: publicError('INVALID_JSON', 'The request body is not valid JSON'),
    },
    {
      name: 'an array body',
      method: 'POST',
      url: '/api/table/items',
      headers: asAlice,
      json: [{ name: 'x' }],
      status: 400,
      expected: publicError('INVALID_BODY'),
    },
    {
      name: 'a string body',
      method: 'PATCH',
      url: '/api/table/items/1',
      headers: asAlice,
      json: 'name',
      status: 400,
      expected: publicError('INVALID_BODY'),
    },
    {
      name: 'a missing required field',
      method: 'POST',
      url: '/api/table/items',
      headers: asAlice,
      json: { qty: 1 },
      status: 400,
      expected: {
        error: { code: 'MISSING_FIELD', message: expect.any(String), details: { name: ['"name" is required'] } },
      },
    },
    {
      name: 'an unknown field',
      method: 'POST',
      url: '/api/table/items',
      headers: asAlice,
      json: { name: 'x', colour: 'red' },
      status: 400,
      expected: { error: { code: 'UNKNOWN_FIELD', details: { colour: [expect.stringContaining('no column')] } } },
    },
    {
      name: 'a number as text (JSON is strict)',
      method: 'POST',
      url: '/api/table/items',
      headers: asAlice,
      json: { name: 'x', qty: '12' },
      status: 400,
      expected: { error: { code: 'INVALID_FIELD', details: { qty: [expect.any(String)] } } },
    },
    {
      name: 'a string for a boolean',
      method: 'PATCH',
      url: '/api/table/items/1',
      headers: asAlice,
      json: { done: 'yes' },
      status: 400,
      expected: { error: { code: 'INVALID_FIELD', details: { done: [expect.any(String)] } } },
    },
    {
      name: 'an object for an array',
      method: 'PATCH',
      url: '/api/table/items/1',
      headers: asAlice,
      json: { tags: { a: 1 } },
      status: 400,
      expected: { error: { code: 'INVALID_FIELD', details: { tags: [expect.any(String)] } } },
    },
    {
      name: 'every bad field at once',
      method: 'POST',
      url: '/api/table/items',
      headers: asAlice,
      json: { qty: 'many', done: 3, colour: 'red' },
      status: 400,
      expected: {
        error: {
          details: {
            name: [expect.any(String)],
            qty: [expect.any(String)],
            done: [expect.any(String)],
            colour: [expect.any(String)],
          },
        },
      },
    },
    {
      name: 'PUT without a required field',
      method: 'PUT',
      url: '/api/table/items/1',
      headers: asAlice,
      json: { qty: 1 },
      status: 400,
      expected: { error: { code: 'MISSING_FIELD', details: { name: ['"name" is required'] } } },
    },
    {
      name: 'PATCH a required field to null',
      method: 'PATCH',
      url: '/api/table/items/1',
      headers: asAlice,
      json: { name: null },
      status: 400,
      expected: publicError('MISSING_FIELD'),
    },
    // 409
    {
      name: 'a duplicate unique value',
      method: 'POST',
      url: '/api/table/items',
      headers: asAlice,
      json: { name: 'x', sku: 'SKU-1' },
      status: 409,
      expected: { error: { code: 'DUPLICATE_VALUE', details: { sku: [expect.any(String)] } } },
    },
    // 400: the query
    {
      name: 'a negative limit',
      method: 'GET',
      url: '/api/table/items?limit=-1',
      headers: asAlice,
      status: 400,
      expected: publicError('INVALID_QUERY', /limit/),
    },
    {
      name: 'a text offset',
      method: 'GET',
      url: '/api/table/items?offset=ten',
      headers: asAlice,
      status: 400,
      expected: publicError('INVALID_QUERY', /offset/),
    },
    {
      name: 'an unknown order',
      method: 'GET',
      url: '/api/table/items?order=sideways',
      headers: asAlice,
      status: 400,
      expected: publicError('INVALID_QUERY', 'order must be asc or desc'),
    },
    {
      name: 'orderBy an unknown column',
      method: 'GET',
      url: '/api/table/items?orderBy=colour',
      headers: asAlice,
      status: 400,
      expected: publicError('INVALID_QUERY', /colour/),
    },
    {
      name: 'a filter on an unknown column',
      method: 'GET',
      url: '/api/table/items?colour=eq.red',
      headers: asAlice,
      status: 400,
      expected: publicError('INVALID_QUERY', /colour/),
    },
    {
      name: 'an unknown operator',
      method: 'GET',
      url: '/api/table/items?qty=about.5',
      headers: asAlice,
      status: 400,
      expected: publicError('INVALID_QUERY'),
    },
    {
      name: 'a value of the wrong type',
      method: 'GET',
      url: '/api/table/items?qty=gt.lots',
      headers: asAlice,
      status: 400,
      expected: publicError('INVALID_QUERY'),
    },
    {
      name: 'a pattern on a number',
      method: 'GET',
      url: '/api/table/items?qty=like.1*',
      headers: asAlice,
      status: 400,
      expected: publicError('INVALID_QUERY'),
    },
    {
      name: 'a JSON path',
      method: 'GET',
      url: '/api/table/items?meta->>n=eq.1',
      headers: asAlice,
      status: 400,
      expected: publicError('INVALID_QUERY'),
    },
    {
      name: 'an unclosed in list',
      method: 'GET',
      url: '/api/table/items?id=in.(1,2',
      headers: asAlice,
      status: 400,
      expected: publicError('INVALID_QUERY'),
    },
  ];
  it.each(scenarios)('$name → $status', (scenario) => runScenario(server, scenario).then(() => undefined));
});
