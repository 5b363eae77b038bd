import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textSearchMatches } from './ts-match.js';
import { buildTsQuery, type SearchOperator, TsQuerySyntaxError } from './ts-query.js';

// The SQLite emulation against PostgreSQL itself: every document × query below answers alike, and the texts
// to_tsquery refuses are refused by both.

const DOCUMENTS = [
  'The fat cats ate the rats',
  'A fat rat sat on the mat',
  'Cats are running in full-text searching',
  "Don't panic: 42 ponies and abc123",
  'The quick brown fox jumps over the lazy dog',
  'Supernovae stars are bright; the crab nebula too',
  'fat the rats',
  '',
];

const QUERIES: [SearchOperator, string, string | null][] = [
  ['fts', 'cat', null],
  ['fts', 'cats & rats', null],
  ['fts', 'fat & !rat', null],
  ['fts', 'fat <-> rat', null],
  ['fts', 'fat <2> rat', null],
  ['fts', "'fat rats'", null],
  ['fts', 'run:*', null],
  ['fts', 'sup:*', 'english'],
  ['fts', 'cat:A', null],
  ['fts', 'cat:D', null],
  ['fts', '(cat | dog) & !fox', null],
  ['fts', 'the', null],
  ['fts', 'full-text', null],
  ['fts', 'cats', 'simple'],
  ['fts', 'pony', null],
  ['fts', '42 | abc123', null],
  ['fts', '!the & cat', null],
  ['plfts', 'fat rats', null],
  ['plfts', 'The Fat Rats', 'english'],
  ['plfts', 'cats rats', 'simple'],
  ['plfts', 'the a an', null],
  ['phfts', 'fat rats', null],
  ['phfts', 'fat the rats', null],
  ['phfts', 'the fat cats ate', null],
  ['phfts', 'lazy dog', null],
  ['wfts', '"fat rat" or cat -dog', null],
  ['wfts', 'supernovae -crab', null],
  ['wfts', 'sad cat or fat rat', null],
  ['wfts', '"supernovae stars" -crab', 'english'],
  ['wfts', 'or cat', null],
  ['wfts', '-the', null],
  ['wfts', 'quick "brown fox', null],
];

const PG_FUNCTION: Record<SearchOperator, string> = {
  fts: 'to_tsquery',
  plfts: 'plainto_tsquery',
  phfts: 'phraseto_tsquery',
  wfts: 'websearch_to_tsquery',
};

const url = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
let client: pg.Client;

beforeAll(async () => {
  client = new pg.Client({ connectionString: url });
  await client.connect();
});
afterAll(async () => {
  await client.end();
});

describe('text search emulation', () => {
  it.each(QUERIES)('%s %j (%s) matches the documents PostgreSQL matches', async (mode, text, config) => {
    const { rows } = await client.query<{ doc: string; hit: boolean }>(
      `SELECT doc, to_tsvector('english', doc) @@ ${PG_FUNCTION[mode]}($2::regconfig, $3) AS hit FROM unnest($1::text[]) AS doc`,
      [DOCUMENTS, config ?? 'english', text],
    );
    const expected = rows.map((r) => [r.doc, r.hit]);
    const actual = DOCUMENTS.map((doc) => [doc, textSearchMatches(doc, mode, config, text)]);
    expect(actual).toEqual(expected);
  });

  it.each(['cat &', 'fat rat', '(cat', 'cat)', '& cat', 'cat <-> ', '!', "'open"])(
    'to_tsquery(%j) is a syntax error on both',
    async (text) => {
      expect(() => buildTsQuery('fts', text, 'english')).toThrow(TsQuerySyntaxError);
      await expect(client.query(`SELECT to_tsquery('english', $1)`, [text])).rejects.toMatchObject({ code: '42601' });
    },
  );
});
