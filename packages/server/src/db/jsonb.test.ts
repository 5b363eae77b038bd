import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type JsonPathStep, jsonbSortKey, jsonbText, jsonPathValue, numericText } from './jsonb.js';

// jsonb's semantics in JS, which SQLite's emulations run per row: checked against the expected values, and,
// when TEST_DATABASE_URL names a PostgreSQL server, against PostgreSQL itself.

const path = (...steps: string[]): JsonPathStep[] =>
  steps.map((s) => {
    const arrow = s.startsWith('->>') ? '->>' : '->';
    const key = s.slice(arrow.length);
    return { arrow, key: /^-?\d+$/.test(key) ? Number(key) : key };
  });

const doc = { a: 1, b: { c: [10, 20, { d: null }] }, s: 'x', n: null, '': 'empty', '0': 'zero' };

describe('jsonPathValue', () => {
  it.each<[string, JsonPathStep[], unknown]>([
    ['a key', path('->a'), 1],
    ['a nested index', path('->b', '->c', '->1'), 20],
    ['a negative index', path('->b', '->c', '->-1'), { d: null }],
    ['an index past the end', path('->b', '->c', '->3'), undefined],
    ['->> of a number is its text', path('->>a'), '1'],
    ['->> of a string is the string', path('->>s'), 'x'],
    ['->> of an object is jsonb text', path('->b', '->>c'), '[10, 20, {"d": null}]'],
    ['-> of JSON null is JSON null', path('->n'), null],
    ['->> of JSON null is SQL NULL', path('->>n'), undefined],
    ['a missing key', path('->nope', '->x'), undefined],
    ['an empty key', path('->>'), 'empty'],
    ['a digit key is an index, which an object has not', path('->0'), undefined],
    ['a text key on an array', path('->b', '->c', '->x'), undefined],
    ['a step after ->>', path('->>b', '->c'), undefined],
    ['an inherited key is no key', path('->constructor'), undefined],
  ])('%s', (_name, steps, expected) => {
    expect(jsonPathValue(doc, steps)).toEqual(expected);
  });
});

describe('jsonbText and numericText', () => {
  it.each<[unknown, string]>([
    [{ bb: 1, a: [1, 2.5], c: 'q"\n' }, '{"a": [1, 2.5], "c": "q\\"\\n", "bb": 1}'],
    [[], '[]'],
    [{}, '{}'],
    [1e21, '1000000000000000000000'],
    [1.5e-7, '0.00000015'],
    [-1e-7, '-0.0000001'],
    [123.456, '123.456'],
    [true, 'true'],
    [null, 'null'],
    ['é', '"é"'],
  ])('%j is %s', (value, expected) => {
    expect(jsonbText(value)).toBe(expected);
  });

  it('prints numbers as numeric does', () => {
    expect(numericText(2.5e25)).toBe('25000000000000000000000000');
  });
});

// Values in jsonb's ascending order (PostgreSQL's btree order for jsonb).
const ORDERED: unknown[] = [
  [],
  null,
  '',
  'A',
  'a',
  'ab',
  'é',
  -1e300,
  -2.5,
  -0,
  1,
  1.5,
  1e21,
  false,
  true,
  [1],
  [2],
  [1, 2],
  { b: 1 },
  { a: 1, b: 2 },
];

describe('jsonbSortKey', () => {
  it('sorts values in jsonb order', () => {
    const keys = ORDERED.map((v) => jsonbSortKey(v));
    expect([...keys].sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y)))).toEqual(keys);
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('against PostgreSQL', () => {
  let client: pg.Client;
  beforeAll(async () => {
    client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await client.connect();
  });
  afterAll(() => client.end());

  it('orders as jsonb does', async () => {
    const shuffled = [...ORDERED].reverse();
    const { rows } = await client.query<{ v: unknown }>('SELECT v FROM unnest($1::jsonb[]) AS t(v) ORDER BY v', [
      shuffled.map((v) => JSON.stringify(v)),
    ]);
    expect(rows.map((r) => jsonbSortKey(r.v))).toEqual(ORDERED.map((v) => jsonbSortKey(v)));
  });

  it('prints jsonb and follows paths as PostgreSQL does', async () => {
    const text = JSON.stringify(doc);
    for (const steps of [path('->b', '->>c'), path('->>a'), path('->b', '->c', '->-1'), path('->>n'), path('->0')]) {
      const sql = `SELECT ($1::jsonb ${steps
        .map((s, i) => `${s.arrow} $${i + 2}::${typeof s.key === 'number' ? 'integer' : 'text'}`)
        .join(' ')})::text AS v`;
      const { rows } = await client.query<{ v: string | null }>(sql, [text, ...steps.map((s) => s.key)]);
      const ours = jsonPathValue(doc, steps);
      const expected =
        ours === undefined ? null : typeof ours === 'string' && steps.at(-1)?.arrow === '->>' ? ours : jsonbText(ours);
      expect(rows[0]?.v).toBe(expected);
    }
  });
});
