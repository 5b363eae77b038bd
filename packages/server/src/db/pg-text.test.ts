import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { float8Text, pgText, timestamptzText } from './pg-text.js';

// PostgreSQL's text output of stored values, which SQLite's unique-violation details use: checked against the
// expected texts and, when TEST_DATABASE_URL names a PostgreSQL server, against PostgreSQL itself (in UTC).

const FLOATS = [
  0, -0, 1, -2.5, 0.1, 0.0001, 0.00001, 1e-7, 123456789012345, 1234567890123456, 1e21, 1.7976931348623157e308,
];
const DATES = ['2025-01-01T00:00:00.000Z', '2025-06-01T10:11:12.500Z', '0999-12-31T23:59:59.123Z'];

describe('float8Text', () => {
  it.each<[number, string]>([
    [0, '0'],
    [-0, '-0'],
    [0.0001, '0.0001'],
    [0.00001, '1e-05'],
    [123456789012345, '123456789012345'],
    [1234567890123456, '1.234567890123456e+15'],
    [1e21, '1e+21'],
    [Number.POSITIVE_INFINITY, 'Infinity'],
  ])('%d is %s', (n, expected) => {
    expect(float8Text(n)).toBe(expected);
  });
});

describe('pgText', () => {
  it.each<[Parameters<typeof pgText>[0], Parameters<typeof pgText>[1], string]>([
    ['boolean', true, 't'],
    ['boolean', false, 'f'],
    ['date', '2025-06-01T10:11:12.500Z', '2025-06-01 10:11:12.5+00'],
    ['json', { b: 1, a: null }, '{"a": null, "b": 1}'],
    ['array', ['x', 1], '["x", 1]'],
    ['text', 'a)=(b', 'a)=(b'],
  ])('%s %j is %s', (type, value, expected) => {
    expect(pgText(type, value)).toBe(expected);
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('against PostgreSQL', () => {
  let client: pg.Client;
  beforeAll(async () => {
    client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL, options: '-c TimeZone=UTC' });
    await client.connect();
  });
  afterAll(() => client.end());

  it('prints double precision alike', async () => {
    const { rows } = await client.query<{ v: string }>('SELECT unnest($1::float8[])::text AS v', [
      FLOATS.map((n) => (Object.is(n, -0) ? '-0' : String(n))),
    ]);
    expect(rows.map((r) => r.v)).toEqual(FLOATS.map(float8Text));
  });

  it('prints timestamptz alike', async () => {
    const { rows } = await client.query<{ v: string }>('SELECT unnest($1::timestamptz[])::text AS v', [DATES]);
    expect(rows.map((r) => r.v)).toEqual(DATES.map(timestamptzText));
  });
});
