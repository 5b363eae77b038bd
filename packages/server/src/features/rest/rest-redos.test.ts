import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRestTable, type RestUser, signUpRestUser, startRestServer } from '../../testing/rest.fixtures.js';
import { type TestServer, testDialects } from '../../testing/test-server.js';

// One request must never freeze the server. On SQLite, like/ilike and match/imatch
// run as JavaScript inside synchronous SQL functions: a backtracking matcher took ~11 s for
// `like.%a%a%a%a%a%b` on one 100-character value, and the whole process waited. Each pattern below must answer
// quickly, with the right rows or a clear 400, and the server must answer the next request at once.

const T = 'longtexts';
// Generous for a loaded CI machine; the linear matchers answer in milliseconds.
const BOUND_MS = 2_000;
const q = encodeURIComponent;

const ROWS = [
  { title: 'a'.repeat(100), note: 'only a' },
  { title: `${'a'.repeat(99)}b`, note: 'ends with b' },
  { title: `${'A'.repeat(50)}${'a'.repeat(50)}`, note: 'mixed case' },
  { title: `${'ab'.repeat(2_000)}!`, note: 'long' },
];

// [name, filter query, notes of the rows it selects, in id order]
const patterns: Array<[string, string, string[]]> = [
  ['like with many %', `title=like.${q('%a%a%a%a%a%b')}`, ['ends with b']],
  ['like with many % and _', `title=like.${q(`${'%_'.repeat(40)}%b`)}`, ['ends with b']],
  ['ilike with many %', `title=ilike.${q('%A%A%A%A%A%B')}`, ['ends with b']],
  ['like with * wildcards', `title=like.${q('*a*a*a*a*a*a*a*a*!')}`, ['long']],
  ['match with nested quantifiers', `title=match.${q('^(a+)+$')}`, ['only a']],
  ['imatch with nested quantifiers', `title=imatch.${q('^(a+)+$')}`, ['only a', 'mixed case']],
  ['match with an alternation under +', `title=match.${q('^(a|aa)+$')}`, ['only a']],
  ['match with (a*)*b', `title=match.${q('(a*)*b$')}`, ['ends with b']],
  ['match with (ab|a)* over the long value', `title=match.${q('^(ab|a)*!?$')}`, ['only a', 'ends with b', 'long']],
];

describe.each(testDialects)('pathological patterns on %s', (dialect) => {
  let server: TestServer;
  let alice: RestUser;

  beforeAll(async () => {
    server = await startRestServer(dialect);
    alice = await signUpRestUser(server);
    await createRestTable(alice, T, { title: { type: 'text', required: true }, note: { type: 'text' } });
    const res = await server.request('POST', `/rest/v1/${T}`, { headers: alice.headers, json: ROWS });
    expect(res.status).toBe(201);
  });
  afterAll(() => server.close());

  it.each(patterns)('%s answers in time with the right rows', async (_name, filter, notes) => {
    const started = performance.now();
    const res = await server.request('GET', `/rest/v1/${T}?select=note&order=id&${filter}`, {
      headers: alice.headers,
    });
    expect(performance.now() - started).toBeLessThan(BOUND_MS);
    expect(res.status).toBe(200);
    expect(res.body.map((row: { note: string }) => row.note)).toEqual(notes);
    // The process is not busy: the next request is answered at once.
    const next = performance.now();
    expect((await server.request('GET', '/api/health')).status).toBe(200);
    expect(performance.now() - next).toBeLessThan(BOUND_MS);
  });

  it('answers the public record API the same way', async () => {
    const started = performance.now();
    const res = await server.request('GET', `/api/table/${T}?title=like.${q('%a%a%a%a%a%b')}`, {
      headers: { authorization: alice.headers.authorization as string },
    });
    expect(performance.now() - started).toBeLessThan(BOUND_MS);
    expect(res.status).toBe(200);
    expect(res.body.map((row: { note: string }) => row.note)).toEqual(['ends with b']);
  });

  it('refuses a regular expression longer than 1,000 characters with a 400', async () => {
    const res = await server.request('GET', `/rest/v1/${T}?title=match.${'a'.repeat(1_001)}`, {
      headers: alice.headers,
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: '2201B', message: expect.stringMatching(/at most 1000/) });
  });

  it.runIf(dialect === 'sqlite')('refuses what a linear-time engine cannot run with a clear 400', async () => {
    for (const pattern of ['^(a)\\1$', 'a(?=b)', '(?<=a)b']) {
      const res = await server.request('GET', `/rest/v1/${T}?title=match.${q(pattern)}`, { headers: alice.headers });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        code: '2201B',
        message: expect.stringMatching(/^invalid regular expression: /),
        hint: expect.stringMatching(/backreferences .* lookaround/),
      });
    }
  });
});
