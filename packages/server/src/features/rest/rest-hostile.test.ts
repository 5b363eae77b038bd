import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RestUser, startSeededRestServer } from '../../testing/rest.fixtures.js';
import { type TestServer, testDialects } from '../../testing/test-server.js';

// Hostile input: SQL fragments in filter values, column names, table names, order, select,
// on_conflict and columns; deep JSON; oversized bodies. None may answer 5xx or change any data: values are
// bound parameters and every name passes the schema whitelist before it reaches SQL.

const T = 'todos';
const DROP = "'; DROP TABLE accounts; --";
const q = encodeURIComponent;
const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);

// [name, method, path and query, raw JSON body, expected status]
const requests: Array<[string, string, string, string | undefined, number]> = [
  ['SQL in an eq value', 'GET', `/rest/v1/${T}?title=eq.${q(DROP)}`, undefined, 200],
  ['SQL in a like value', 'GET', `/rest/v1/${T}?title=like.${q("%' OR 1=1 --")}`, undefined, 200],
  ['SQL in an in list', 'GET', `/rest/v1/${T}?id=in.(1);DROP TABLE accounts`, undefined, 400],
  ['SQL in a quoted in element', 'GET', `/rest/v1/${T}?title=in.(${q(`"${DROP}"`)})`, undefined, 200],
  ['SQL in a cs value', 'GET', `/rest/v1/${T}?meta=cs.${q(`{"a":1}'); DROP TABLE accounts; --`)}`, undefined, 400],
  ['SQL in an or value', 'GET', `/rest/v1/${T}?or=(title.eq.${q(`"${DROP}"`)},id.eq.1)`, undefined, 200],
  ['SQL in a number value', 'GET', `/rest/v1/${T}?qty=gt.${q('1 OR 1=1')}`, undefined, 400],
  ['NUL in a value', 'GET', `/rest/v1/${T}?title=eq.a%00b`, undefined, 400],
  ['an invalid regular expression', 'GET', `/rest/v1/${T}?title=match.${q('(')}`, undefined, 400],
  ['SQL as a filter column', 'GET', `/rest/v1/${T}?${q('title" = title OR "1')}=eq.1`, undefined, 400],
  ['SQL as a quoted filter column', 'GET', `/rest/v1/${T}?${q('"x""; DROP TABLE accounts; --"')}=eq.1`, undefined, 400],
  ['SQL in select', 'GET', `/rest/v1/${T}?select=${q('id,(SELECT password_hash FROM accounts)')}`, undefined, 400],
  [
    'SQL as a quoted select column',
    'GET',
    `/rest/v1/${T}?select=${q('"id""; DROP TABLE accounts; --"')}`,
    undefined,
    400,
  ],
  ['SQL in select as a cast', 'GET', `/rest/v1/${T}?select=${q('id::text); DROP TABLE accounts; --')}`, undefined, 400],
  ['SQL in order', 'GET', `/rest/v1/${T}?order=${q('id; DROP TABLE accounts')}`, undefined, 400],
  [
    'SQL in a quoted order column',
    'GET',
    `/rest/v1/${T}?order=${q('"id"" DESC; DROP TABLE accounts; --"')}`,
    undefined,
    400,
  ],
  // JSON path keys are bound values: quotes and SQL in them are just keys that match nothing.
  ['a quoted JSON key in order', 'GET', `/rest/v1/${T}?order=${q("meta->>'a'")}`, undefined, 200],
  ['SQL as a JSON key', 'GET', `/rest/v1/${T}?${q(`meta->>"${DROP}"`)}=eq.1`, undefined, 200],
  ['quotes in a JSON key', 'GET', `/rest/v1/${T}?${q('meta->"a\\"b"->>"c\'d"')}=eq.1`, undefined, 200],
  ['SQL as a JSON key in select', 'GET', `/rest/v1/${T}?select=${q(`meta->>"${DROP}"`)}`, undefined, 200],
  ['SQL as a JSON key in order', 'GET', `/rest/v1/${T}?order=${q(`meta->"${DROP}".desc`)}`, undefined, 200],
  [
    'SQL as a JSON key in a tree',
    'GET',
    `/rest/v1/${T}?or=(${q(`meta->>"x') OR 1=1 --".eq.1`)},id.eq.-1)`,
    undefined,
    200,
  ],
  ['a unicode JSON key', 'GET', `/rest/v1/${T}?${q('meta->>ключ 🔑')}=eq.1`, undefined, 200],
  ['a $ path as a JSON key', 'GET', `/rest/v1/${T}?${q('meta->>"$.a"')}=eq.1`, undefined, 200],
  ['SQL as a JSON key of a PATCH', 'PATCH', `/rest/v1/${T}?${q(`meta->>"${DROP}"`)}=eq.x`, '{"note":"x"}', 204],
  ['SQL as a JSON key of a DELETE', 'DELETE', `/rest/v1/${T}?${q(`meta->>"${DROP}"`)}=eq.1`, undefined, 204],
  ['a very deep JSON path', 'GET', `/rest/v1/${T}?${q(`meta${'->a'.repeat(500)}`)}=eq.1`, undefined, 400],
  ['a very deep JSON path in order', 'GET', `/rest/v1/${T}?order=${q(`meta${'->a'.repeat(500)}`)}`, undefined, 400],
  ['a very deep JSON path in select', 'GET', `/rest/v1/${T}?select=${q(`meta${'->a'.repeat(500)}`)}`, undefined, 400],
  ['NUL in a JSON key', 'GET', `/rest/v1/${T}?meta->>a%00b=eq.1`, undefined, 400],
  ['a huge array index', 'GET', `/rest/v1/${T}?${q('tags->99999999999')}=eq.1`, undefined, 400],
  ['a JSON path on text', 'GET', `/rest/v1/${T}?${q('title->a')}=eq.1`, undefined, 400],
  ['a JSON key after ->>', 'GET', `/rest/v1/${T}?${q('meta->>a->b')}=eq.1`, undefined, 400],
  [
    'SQL in on_conflict',
    'POST',
    `/rest/v1/${T}?on_conflict=${q('title) DO NOTHING; DROP TABLE accounts; --')}`,
    '{"title":"x1"}',
    400,
  ],
  [
    'SQL as a quoted on_conflict column',
    'POST',
    `/rest/v1/${T}?on_conflict=${q('"title""); --"')}`,
    '{"title":"x2"}',
    400,
  ],
  [
    'SQL in columns',
    'POST',
    `/rest/v1/${T}?columns=${q('"title","x""); DROP TABLE accounts; --"')}`,
    '[{"title":"x3"}]',
    400,
  ],
  ['SQL as a body key', 'POST', `/rest/v1/${T}`, `{"title":"x4",${JSON.stringify(DROP)}:1}`, 400],
  ['SQL as a PATCH key', 'PATCH', `/rest/v1/${T}?id=eq.1`, `{${JSON.stringify(DROP)}:1}`, 400],
  ['__proto__ in a body', 'POST', `/rest/v1/${T}`, '{"title":"x5","__proto__":{"admin":true}}', 400],
  ['a system table by name', 'GET', '/rest/v1/accounts', undefined, 404],
  ['a real table by its SQL name', 'GET', '/rest/v1/t_1', undefined, 404],
  ['sqlite_master', 'GET', '/rest/v1/sqlite_master', undefined, 404],
  ['a path traversal', 'GET', `/rest/v1/${q('../accounts')}`, undefined, 404],
  ['SQL as a table name', 'DELETE', `/rest/v1/${q(`${T}; DROP TABLE accounts`)}?id=eq.1`, undefined, 404],
  ['deep JSON in a json column', 'POST', `/rest/v1/${T}`, `{"title":"x6","meta":${deep(10_000)}}`, 400],
  ['deep JSON as the body', 'POST', `/rest/v1/${T}`, deep(100_000), 400],
  ['deep logic trees', 'GET', `/rest/v1/${T}?or=(${'and('.repeat(100)}id.eq.1${')'.repeat(100)})`, undefined, 400],
  ['an oversized body', 'POST', `/rest/v1/${T}`, `{"title":"${'x'.repeat(2 * 1024 * 1024)}"}`, 413],
  [
    'an oversized bulk insert',
    'POST',
    `/rest/v1/${T}`,
    JSON.stringify(Array.from({ length: 60_000 }, (_, i) => ({ title: `t${i}` }))),
    413,
  ],
  [
    'a huge limit and offset',
    'GET',
    `/rest/v1/${T}?limit=99999999999999999999&offset=99999999999999999999`,
    undefined,
    200,
  ],
];

describe.each(testDialects)('/rest/v1 hostile input on %s', (dialect) => {
  let server: TestServer;
  let alice: RestUser;
  let seeded: unknown;

  beforeAll(async () => {
    ({ server, alice } = await startSeededRestServer(dialect, T));
    seeded = (await alice.client.from(T).select('*').order('id')).data;
  });
  afterAll(() => server.close());

  it.each(requests)('%s: %s %s', async (_name, method, url, body, status) => {
    const res = await server.request(method, url, {
      headers: { ...alice.headers, 'content-type': 'application/json' },
      ...(body !== undefined ? { body } : {}),
    });
    expect(res.status).toBe(status);
    if (status >= 400)
      expect(res.body).toEqual(expect.objectContaining({ code: expect.any(String), message: expect.any(String) }));
  });

  it('changed no data, and the system tables still work', async () => {
    expect((await alice.client.from(T).select('*').order('id')).data).toEqual(seeded);
    expect((await alice.client.from('tables').select('name')).data).toEqual([{ name: T }]);
    const { data, error } = await alice.client.auth.getUser();
    expect(error).toBeNull();
    expect(data.user?.id).toBe(alice.accountId);
  });
});
