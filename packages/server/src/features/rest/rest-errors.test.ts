import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  pgrst,
  type RestScenario,
  type RestUser,
  runRestScenario,
  startSeededRestServer,
} from '../../testing/rest.fixtures.js';
import { type TestServer, testDialects } from '../../testing/test-server.js';

// The request and data errors of the protocol's P0 list over raw HTTP, with their exact status and body
//: a table of scenarios, as PocketBase's ApiScenario. None may change the data.

const T = 'todos';

describe.each(testDialects)('/rest/v1 errors on %s', (dialect) => {
  let server: TestServer;
  let alice: RestUser;

  beforeAll(async () => {
    ({ server, alice } = await startSeededRestServer(dialect, T));
  });
  afterAll(() => server.close());

  const scenarios: RestScenario[] = [
    // Parsing.
    {
      name: 'a malformed filter: PGRST100',
      method: 'GET',
      url: `/rest/v1/${T}?qty=xx.1`,
      status: 400,
      expected: pgrst(
        'PGRST100',
        '"failed to parse filter (xx.1)" (line 1, column 1)',
        'unexpected "x" expecting "not" or operator (eq, gt, ...)',
      ),
    },
    {
      name: 'a limit that is no number: PGRST100',
      method: 'GET',
      url: `/rest/v1/${T}?limit=ten`,
      status: 400,
      expected: pgrst(
        'PGRST100',
        '"failed to parse limit parameter (ten)" (line 1, column 1)',
        'unexpected "t" expecting digit',
      ),
    },
    {
      name: 'a malformed select: PGRST100',
      method: 'GET',
      url: `/rest/v1/${T}?select=title,`,
      status: 400,
      expected: {
        code: 'PGRST100',
        details: expect.any(String),
        hint: null,
        message: '"failed to parse select parameter (title,)" (line 1, column 7)',
      },
    },
    {
      name: 'invalid JSON: PGRST102',
      method: 'POST',
      url: `/rest/v1/${T}`,
      body: '{"title":',
      extraHeaders: { 'content-type': 'application/json' },
      status: 400,
      expected: pgrst('PGRST102', 'Empty or invalid json'),
    },
    {
      name: 'an empty body: PGRST102',
      method: 'POST',
      url: `/rest/v1/${T}`,
      body: '',
      extraHeaders: { 'content-type': 'application/json' },
      status: 400,
      expected: pgrst('PGRST102', 'Empty or invalid json'),
    },
    {
      name: 'a body that is no object: PGRST102',
      method: 'PATCH',
      url: `/rest/v1/${T}?id=eq.1`,
      json: [1, 2],
      status: 400,
      expected: pgrst('PGRST102', 'Empty or invalid json'),
    },
    {
      name: 'bulk rows with different keys: PGRST102',
      method: 'POST',
      url: `/rest/v1/${T}`,
      json: [{ title: 'x' }, { qty: 1 }],
      status: 400,
      expected: pgrst('PGRST102', 'All object keys must match'),
    },
    {
      name: 'an offset past the count: PGRST103',
      method: 'GET',
      url: `/rest/v1/${T}?offset=30`,
      extraHeaders: { prefer: 'count=exact' },
      status: 416,
      expected: pgrst(
        'PGRST103',
        'Requested range not satisfiable',
        'An offset of 30 was requested, but there are only 4 rows.',
      ),
    },
    {
      name: 'a negative limit: PGRST103',
      method: 'GET',
      url: `/rest/v1/${T}?limit=-1`,
      status: 416,
      expected: pgrst('PGRST103', 'Requested range not satisfiable', 'Limit should be greater than or equal to zero.'),
    },
    {
      name: 'singular Accept and 0 rows: PGRST116',
      method: 'GET',
      url: `/rest/v1/${T}?id=eq.999`,
      extraHeaders: { accept: 'application/vnd.pgrst.object+json' },
      status: 406,
      expected: pgrst('PGRST116', 'Cannot coerce the result to a single JSON object', 'The result contains 0 rows'),
    },
    {
      name: 'singular Accept and 4 rows: PGRST116',
      method: 'GET',
      url: `/rest/v1/${T}`,
      extraHeaders: { accept: 'application/vnd.pgrst.object+json' },
      status: 406,
      expected: pgrst('PGRST116', 'Cannot coerce the result to a single JSON object', 'The result contains 4 rows'),
    },
    {
      name: 'an unknown Accept: PGRST107',
      method: 'GET',
      url: `/rest/v1/${T}`,
      extraHeaders: { accept: 'application/xml' },
      status: 406,
      expected: pgrst('PGRST107', 'None of these media types are available: application/xml'),
    },
    // Columns and values.
    {
      name: 'an unknown body column: PGRST204',
      method: 'POST',
      url: `/rest/v1/${T}`,
      json: { title: 'x', banana: 1 },
      status: 400,
      expected: pgrst('PGRST204', `Could not find the 'banana' column of '${T}' in the schema cache`),
    },
    {
      name: 'an unknown column in columns: PGRST204',
      method: 'POST',
      url: `/rest/v1/${T}?columns=title,banana`,
      json: [{ title: 'x' }],
      status: 400,
      expected: pgrst('PGRST204', `Could not find the 'banana' column of '${T}' in the schema cache`),
    },
    {
      name: 'an unknown PATCH column: PGRST204',
      method: 'PATCH',
      url: `/rest/v1/${T}?id=eq.1`,
      json: { banana: 1 },
      status: 400,
      expected: pgrst('PGRST204', `Could not find the 'banana' column of '${T}' in the schema cache`),
    },
    {
      name: 'an unknown select column: 42703',
      method: 'GET',
      url: `/rest/v1/${T}?select=id,banana`,
      status: 400,
      expected: pgrst('42703', `column ${T}.banana does not exist`),
    },
    {
      name: 'an unknown filter column: 42703',
      method: 'GET',
      url: `/rest/v1/${T}?banana=eq.1`,
      status: 400,
      expected: pgrst('42703', `column ${T}.banana does not exist`),
    },
    {
      name: 'an unknown column in or: 42703',
      method: 'GET',
      url: `/rest/v1/${T}?or=(id.eq.1,banana.eq.2)`,
      status: 400,
      expected: pgrst('42703', `column ${T}.banana does not exist`),
    },
    {
      name: 'an unknown order column: 42703',
      method: 'GET',
      url: `/rest/v1/${T}?order=banana.desc`,
      status: 400,
      expected: pgrst('42703', `column ${T}.banana does not exist`),
    },
    {
      name: 'an unknown select column after a write: 42703, nothing written',
      method: 'POST',
      url: `/rest/v1/${T}?select=banana`,
      json: { title: 'never' },
      extraHeaders: { prefer: 'return=representation' },
      status: 400,
      expected: pgrst('42703', `column ${T}.banana does not exist`),
    },
    {
      name: 'a filter value of the wrong type: 22P02',
      method: 'GET',
      url: `/rest/v1/${T}?qty=gt.abc`,
      status: 400,
      expected: pgrst('22P02', 'invalid input syntax for type double precision: "abc"'),
    },
    {
      name: 'a boolean filter value that is none: 22P02',
      method: 'GET',
      url: `/rest/v1/${T}?done=eq.maybe`,
      status: 400,
      expected: pgrst('22P02', 'invalid input syntax for type boolean: "maybe"'),
    },
    {
      name: 'a body value of the wrong type: 22P02',
      method: 'POST',
      url: `/rest/v1/${T}`,
      json: { title: 'x', qty: 'many' },
      status: 400,
      expected: { code: '22P02', details: null, hint: null, message: expect.stringContaining('qty') },
    },
    {
      name: 'NULL into a required column: 23502',
      method: 'POST',
      url: `/rest/v1/${T}`,
      json: { title: null },
      status: 400,
      expected: pgrst('23502', `null value in column "title" of relation "${T}" violates not-null constraint`),
    },
    {
      name: 'a duplicate unique value: 23505',
      method: 'POST',
      url: `/rest/v1/${T}`,
      json: { title: 'Apple' },
      status: 409,
      expected: {
        code: '23505',
        details: expect.stringMatching(/^Key \(title\)/),
        hint: null,
        message: `duplicate key value violates unique constraint "${T}_title_key"`,
      },
    },
    {
      name: 'a duplicate id: 23505',
      method: 'POST',
      url: `/rest/v1/${T}`,
      json: { id: 1, title: 'new' },
      status: 409,
      expected: {
        code: '23505',
        details: expect.stringMatching(/^Key \(id\)/),
        hint: null,
        message: `duplicate key value violates unique constraint "${T}_pkey"`,
      },
    },
    {
      name: 'PATCH without a filter: 21000',
      method: 'PATCH',
      url: `/rest/v1/${T}`,
      json: { qty: 0 },
      status: 400,
      expected: pgrst('21000', 'UPDATE requires a WHERE clause'),
    },
    {
      name: 'DELETE without a filter: 21000',
      method: 'DELETE',
      url: `/rest/v1/${T}`,
      status: 400,
      expected: pgrst('21000', 'DELETE requires a WHERE clause'),
    },
    {
      name: 'DELETE with only select and order: 21000',
      method: 'DELETE',
      url: `/rest/v1/${T}?select=id&order=id`,
      status: 400,
      expected: pgrst('21000', 'DELETE requires a WHERE clause'),
    },
  ];

  it.each(scenarios)('$name', (scenario) => runRestScenario(server, alice, scenario));

  it('changed nothing: the four rows are as seeded', async () => {
    const { data } = await alice.client.from(T).select('id, title, qty').order('id');
    expect(data?.map((row) => row.title)).toEqual(['Apple', 'banana', 'Cherry pie', 'date 100%']);
    expect(data?.map((row) => row.qty)).toEqual([5, 12, null, 9]);
  });

  it('answers a failed HEAD with its status and no body', async () => {
    const res = await server.request('HEAD', `/rest/v1/${T}?banana=eq.1`, { headers: alice.headers });
    expect({ status: res.status, text: res.text }).toEqual({ status: 400, text: '' });
  });

  it('rolls back a singular write over raw HTTP', async () => {
    const res = await server.request('PATCH', `/rest/v1/${T}?qty=gte.0`, {
      headers: { ...alice.headers, accept: 'application/vnd.pgrst.object+json', prefer: 'return=representation' },
      json: { note: 'changed' },
    });
    expect({ status: res.status, body: res.body }).toEqual({
      status: 406,
      body: pgrst('PGRST116', 'Cannot coerce the result to a single JSON object', 'The result contains 3 rows'),
    });
    const { data } = await alice.client.from(T).select('note').eq('note', 'changed');
    expect(data).toEqual([]);
  });
});
