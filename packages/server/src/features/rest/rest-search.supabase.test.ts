import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createRestTable,
  pgrst,
  type RestUser,
  runRestScenario,
  signUpRestUser,
  startRestServer,
} from '../../testing/rest.fixtures.js';
import { type TestServer, testDialects } from '../../testing/test-server.js';

// Full-text search through supabase-js's own `.textSearch()` (fts, plfts, phfts, wfts, with and without a
// config), in logic trees and negated, on both engines: the same rows on SQLite's emulation as on PostgreSQL's
// to_tsvector/to_tsquery. Bad input answers 400 with PostgreSQL's codes.

const POSTS = [
  { title: 'The fat cats ate the rats', body: 'Cats are running' },
  { title: 'A fat rat sat on the mat', body: 'no cats here, just one rat' },
  { title: 'Supernovae stars', body: 'the crab nebula is bright' },
  { title: 'Full-text searching', body: null },
];

type Options = { type?: 'plain' | 'phrase' | 'websearch'; config?: string };

const searches: Array<[string, string, string, Options, number[]]> = [
  ['fts stems words', 'title', 'cat', {}, [0]],
  ['fts with & and !', 'title', 'fat & !cat', {}, [1]],
  ['fts phrase <->', 'title', 'fat <-> rat', {}, [1]],
  ['fts prefix', 'title', 'super:*', {}, [2]],
  ['fts with a config', 'title', 'rats', { config: 'english' }, [0, 1]],
  ['fts simple config keeps plurals', 'title', 'cats', { config: 'simple' }, []],
  ['fts on a hyphenated word', 'title', 'full-text', {}, [3]],
  ['plain', 'title', 'fat rats', { type: 'plain' }, [0, 1]],
  ['plain of stop words matches nothing', 'title', 'the a', { type: 'plain' }, []],
  ['phrase', 'title', 'fat cats', { type: 'phrase', config: 'english' }, [0]],
  ['phrase across a stop word', 'title', 'rat sat on the mat', { type: 'phrase' }, [1]],
  ['websearch', 'body', '"crab nebula" or running -rat', { type: 'websearch' }, [0, 2]],
  ['websearch negation', 'body', 'cats -rat', { type: 'websearch', config: 'english' }, [0]],
  ['a NULL body never matches', 'body', 'searching', { type: 'plain' }, []],
];

describe.each(testDialects)('/rest/v1 full-text search on %s', (dialect) => {
  let server: TestServer;
  let alice: RestUser;
  let ids: number[];

  beforeAll(async () => {
    server = await startRestServer(dialect);
    alice = await signUpRestUser(server);
    await createRestTable(alice, 'posts', { title: { type: 'text' }, body: { type: 'text' }, n: { type: 'number' } });
    const { data, error } = await alice.client.from('posts').insert(POSTS).select('id');
    if (error || !data) throw new Error(error?.message);
    ids = data.map((row) => row.id as number);
  });
  afterAll(() => server.close());

  it.each(searches)('%s', async (_name, column, query, options, expected) => {
    const { data, error } = await alice.client
      .from('posts')
      .select('id')
      .textSearch(column, query, options)
      .order('id');
    expect(error).toBeNull();
    expect((data ?? []).map((row) => row.id)).toEqual(expected.map((i) => ids[i]));
  });

  it('negates, and searches inside or trees and with a count', async () => {
    const negated = await alice.client.from('posts').select('id').not('title', 'fts', 'cat').order('id');
    expect(negated.data?.map((r) => r.id)).toEqual([ids[1], ids[2], ids[3]]);
    const tree = await alice.client
      .from('posts')
      .select('id', { count: 'exact' })
      .or('title.fts.cat,body.wfts(english)."crab nebula"')
      .order('id');
    expect(tree.data?.map((r) => r.id)).toEqual([ids[0], ids[2]]);
    expect(tree.count).toBe(2);
  });

  it.each([
    {
      name: 'a to_tsquery syntax error',
      url: '/rest/v1/posts?title=fts.cat%20%26',
      status: 400,
      expected: pgrst('42601', 'syntax error in tsquery: "cat &"'),
    },
    {
      name: 'an unknown configuration',
      url: '/rest/v1/posts?title=fts(klingon).cat',
      status: 400,
      expected: pgrst('42704', 'text search configuration "klingon" does not exist'),
    },
    {
      name: 'a number column',
      url: '/rest/v1/posts?n=fts.cat',
      status: 400,
      expected: pgrst('42883', 'operator fts needs a text column; "n" is number (double precision)'),
    },
    {
      name: 'an unknown column',
      url: '/rest/v1/posts?nope=plfts.cat',
      status: 400,
      expected: pgrst('42703', 'column posts.nope does not exist'),
    },
    {
      name: 'a malformed config',
      url: '/rest/v1/posts?title=fts(en-gb).cat',
      status: 400,
      expected: pgrst(
        'PGRST100',
        '"failed to parse filter (fts(en-gb).cat)" (line 1, column 4)',
        'unexpected "(" expecting "(" or delimiter (.)',
      ),
    },
    {
      name: 'a NUL in the query',
      url: '/rest/v1/posts?title=wfts.ca%00t',
      status: 400,
      expected: pgrst('22021', 'invalid byte sequence for encoding "UTF8": 0x00', null, 'Remove %00 from the URL'),
    },
  ])('refuses $name', async (scenario) => {
    await runRestScenario(server, alice, { method: 'GET', ...scenario, expected: scenario.expected });
  });

  it('never answers 500 for hostile search text', async () => {
    for (const text of ['!!!!!!!!', "'", '((((((((((((', '<->', 'a <99999> b', ':*', '"', '-', 'a'.repeat(5000)]) {
      for (const op of ['fts', 'plfts', 'phfts', 'wfts']) {
        const response = await fetch(`${server.url}/rest/v1/posts?title=${op}.${encodeURIComponent(text)}`, {
          headers: alice.headers,
        });
        expect([200, 400], `${op} ${text.slice(0, 20)}`).toContain(response.status);
      }
    }
  });
});
