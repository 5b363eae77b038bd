import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RestUser, startSeededRestServer } from '../../testing/rest.fixtures.js';
import { type TestServer, testDialects } from '../../testing/test-server.js';

// The shape of successful responses over raw HTTP: status, Content-Range, Range-Unit,
// Preference-Applied, Content-Type and whether there is a body. The rows run in order on one table.

const T = 'todos';
const JSON_TYPE = 'application/json; charset=utf-8';
const OBJECT_TYPE = 'application/vnd.pgrst.object+json; charset=utf-8';

interface Case {
  name: string;
  method: string;
  url: string;
  headers?: Record<string, string>;
  json?: unknown;
  status: number;
  range: string | null;
  applied?: string | null;
  type?: string | null;
  /** The body: exactly this JSON, or '' for none. */
  body: unknown;
}

const cases: Case[] = [
  {
    name: 'a page',
    method: 'GET',
    url: `/rest/v1/${T}?select=id&order=id&limit=2`,
    status: 200,
    range: '0-1/*',
    type: JSON_TYPE,
    body: [{ id: 1 }, { id: 2 }],
  },
  {
    name: 'a counted page: 206',
    method: 'GET',
    url: `/rest/v1/${T}?select=id&order=id&offset=1&limit=2`,
    headers: { prefer: 'count=exact' },
    status: 206,
    range: '1-2/4',
    applied: 'count=exact',
    body: [{ id: 2 }, { id: 3 }],
  },
  {
    name: 'everything counted: 200',
    method: 'GET',
    url: `/rest/v1/${T}?select=id`,
    headers: { prefer: 'count=planned' },
    status: 200,
    range: '0-3/4',
    applied: 'count=planned',
    body: [{ id: 1 }, { id: 2 }, { id: 3 }, { id: 4 }],
  },
  {
    name: 'an offset at the total',
    method: 'GET',
    url: `/rest/v1/${T}?offset=4`,
    headers: { prefer: 'count=exact' },
    status: 206,
    range: '*/4',
    body: [],
  },
  {
    name: 'no match, counted',
    method: 'GET',
    url: `/rest/v1/${T}?id=eq.999`,
    headers: { prefer: 'count=estimated' },
    status: 200,
    range: '*/0',
    body: [],
  },
  {
    name: 'the Range header',
    method: 'GET',
    url: `/rest/v1/${T}?select=id&order=id`,
    headers: { 'range-unit': 'items', range: '1-2' },
    status: 200,
    range: '1-2/*',
    body: [{ id: 2 }, { id: 3 }],
  },
  {
    name: 'HEAD with a count',
    method: 'HEAD',
    url: `/rest/v1/${T}?limit=3`,
    headers: { prefer: 'count=exact' },
    status: 206,
    range: '0-2/4',
    type: JSON_TYPE,
    body: '',
  },
  { name: 'HEAD without a count', method: 'HEAD', url: `/rest/v1/${T}`, status: 200, range: '0-3/*', body: '' },
  {
    name: 'a singular read',
    method: 'GET',
    url: `/rest/v1/${T}?select=id,title&id=eq.2`,
    headers: { accept: 'application/vnd.pgrst.object+json' },
    status: 200,
    range: '0-0/*',
    type: OBJECT_TYPE,
    body: { id: 2, title: 'banana' },
  },
  {
    name: 'an insert, minimal',
    method: 'POST',
    url: `/rest/v1/${T}`,
    json: { title: 'e' },
    status: 201,
    range: '*/*',
    applied: null,
    type: null,
    body: '',
  },
  {
    name: 'an insert, counted',
    method: 'POST',
    url: `/rest/v1/${T}`,
    headers: { prefer: 'return=minimal, count=exact' },
    json: [{ title: 'f' }, { title: 'g' }],
    status: 201,
    range: '*/2',
    applied: 'return=minimal, count=exact',
    body: '',
  },
  {
    name: 'an insert, represented',
    method: 'POST',
    url: `/rest/v1/${T}?select=id,title`,
    headers: { prefer: 'return=representation' },
    json: { title: 'h' },
    status: 201,
    range: '*/*',
    applied: 'return=representation',
    type: JSON_TYPE,
    body: [{ id: 8, title: 'h' }],
  },
  {
    name: 'a singular insert',
    method: 'POST',
    url: `/rest/v1/${T}?select=id`,
    headers: { prefer: 'return=representation', accept: 'application/vnd.pgrst.object+json' },
    json: { title: 'i' },
    status: 201,
    range: '*/*',
    type: OBJECT_TYPE,
    body: { id: 9 },
  },
  {
    name: 'an upsert that only updates: 200',
    method: 'POST',
    url: `/rest/v1/${T}?on_conflict=title`,
    headers: { prefer: 'resolution=merge-duplicates' },
    json: { title: 'i', qty: 1 },
    status: 200,
    range: '*/*',
    applied: 'resolution=merge-duplicates',
    body: '',
  },
  {
    name: 'an update, minimal',
    method: 'PATCH',
    url: `/rest/v1/${T}?title=in.(e,f)`,
    json: { qty: 3 },
    status: 204,
    range: '0-1/*',
    body: '',
  },
  {
    name: 'an update, counted',
    method: 'PATCH',
    url: `/rest/v1/${T}?title=eq.g`,
    headers: { prefer: 'count=exact' },
    json: { qty: 3 },
    status: 204,
    range: '0-0/1',
    body: '',
  },
  {
    name: 'an update of nothing',
    method: 'PATCH',
    url: `/rest/v1/${T}?id=eq.999`,
    json: { qty: 3 },
    status: 204,
    range: '*/*',
    body: '',
  },
  {
    name: 'an update, represented',
    method: 'PATCH',
    url: `/rest/v1/${T}?title=eq.g&select=title,qty`,
    headers: { prefer: 'return=representation' },
    json: { qty: 4 },
    status: 200,
    range: '0-0/*',
    type: JSON_TYPE,
    body: [{ title: 'g', qty: 4 }],
  },
  { name: 'a delete, minimal', method: 'DELETE', url: `/rest/v1/${T}?title=eq.e`, status: 204, range: '*/*', body: '' },
  {
    name: 'a delete, counted and represented',
    method: 'DELETE',
    url: `/rest/v1/${T}?title=in.(f,g)&select=title`,
    headers: { prefer: 'return=representation,count=exact' },
    status: 200,
    range: '*/2',
    type: JSON_TYPE,
    body: [{ title: 'f' }, { title: 'g' }],
  },
];

describe.each(testDialects)('/rest/v1 responses on %s', (dialect) => {
  let server: TestServer;
  let alice: RestUser;

  beforeAll(async () => {
    ({ server, alice } = await startSeededRestServer(dialect, T));
  });
  afterAll(() => server.close());

  it.each(cases)('$name', async (c) => {
    const res = await server.request(c.method, c.url, {
      headers: { ...alice.headers, ...c.headers },
      ...(c.json !== undefined ? { json: c.json } : {}),
    });
    expect({ status: res.status, body: c.body === '' ? res.text : res.body }).toEqual({
      status: c.status,
      body: c.body,
    });
    expect(res.headers.get('content-range')).toBe(c.range);
    if (c.method === 'GET' || c.method === 'HEAD') expect(res.headers.get('range-unit')).toBe('items');
    if (c.applied !== undefined) expect(res.headers.get('preference-applied')).toBe(c.applied);
    if (c.type !== undefined) expect(res.headers.get('content-type')).toBe(c.type);
  });
});
