import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/database.js';
import type { Condition, OrderTerm } from '../../db/user-conditions.js';
import { createItemsTable } from '../../testing/records.fixtures.js';
import { type SignedInAccount, signIn } from '../../testing/tables.fixtures.js';
import { startTestServer, type TestServer, testDialects } from '../../testing/test-server.js';
import type { TableDefinition } from '../tables/tables.service.js';
import { countRecords, createRecords, listRecords } from './records.service.js';

const rows = [
  {
    title: 'Apple',
    qty: 10,
    done: true,
    due: '2025-01-01',
    meta: { color: 'red', size: { w: 1 } },
    tags: ['a', 'b'],
    note: 'x%y',
  },
  { title: 'apricot', qty: 9, done: false, due: '2025-06-01', meta: { color: 'orange' }, tags: ['b', 'c'], note: null },
  { title: 'Banana', qty: 600, done: null, due: null, meta: [1, 2, 3], tags: [], note: 'x_y' },
  { title: 'cherry', qty: null, done: true, due: '2024-12-31T23:00:00Z', meta: null, tags: null, note: "it's" },
];

const leaf = (column: string, op: string, value: unknown): Condition => {
  if (op === 'like' || op === 'ilike' || op === 'match' || op === 'imatch')
    return { kind: 'pattern', column, op, pattern: String(value) };
  if (op === 'in') return { kind: 'in', column, values: value as never[] };
  if (op === 'is') return { kind: 'is', column, value: value as null };
  if (op === 'cs' || op === 'cd' || op === 'ov') return { kind: 'contains', column, op, value: value as never };
  return { kind: 'compare', column, op: op as 'eq', value: value as never };
};
const not = (condition: Condition): Condition => ({ kind: 'not', condition });
/** at reads a JSON path into a column: at('meta', '->size', '->>w', '->0'), keys of digits as indexes. */
const at = (column: string, op: string, value: unknown, ...steps: string[]): Condition =>
  ({
    ...leaf(column, op, value),
    path: steps.map((s) => {
      const arrow = s.startsWith('->>') ? '->>' : '->';
      const key = s.slice(arrow.length);
      return { arrow, key: /^-?\d+$/.test(key) ? Number(key) : key };
    }),
  }) as Condition;

// Each row: a condition and the titles it selects, in id order. Values given as strings are query-string text.
const filters: Array<[string, Condition, string[]]> = [
  ['eq number', leaf('qty', 'eq', 10), ['Apple']],
  ['eq number from text', leaf('qty', 'eq', '10'), ['Apple']],
  ['neq skips NULLs', leaf('qty', 'neq', 10), ['apricot', 'Banana']],
  ['gt compares numerically', leaf('qty', 'gt', '9'), ['Apple', 'Banana']],
  ['gte', leaf('qty', 'gte', 10), ['Apple', 'Banana']],
  ['lt', leaf('qty', 'lt', 10), ['apricot']],
  ['lte', leaf('qty', 'lte', 10), ['Apple', 'apricot']],
  ['eq boolean', leaf('done', 'eq', true), ['Apple', 'cherry']],
  ['eq boolean from text', leaf('done', 'eq', 'false'), ['apricot']],
  ['eq date', leaf('due', 'eq', '2025-01-01T00:00:00Z'), ['Apple']],
  ['lt date across zones', leaf('due', 'lt', '2025-01-01T00:30:00+01:00'), ['cherry']],
  ['eq json ignores key order', leaf('meta', 'eq', { size: { w: 1 }, color: 'red' }), ['Apple']],
  ['neq json', leaf('meta', 'neq', '[1,2,3]'), ['Apple', 'apricot']],
  ['like is case-sensitive', leaf('title', 'like', 'Ap%'), ['Apple']],
  ['ilike is not', leaf('title', 'ilike', 'ap%'), ['Apple', 'apricot']],
  ['like escapes wildcards', leaf('note', 'like', 'x\\%y'), ['Apple']],
  ['like _ is one character', leaf('note', 'like', 'x_y'), ['Apple', 'Banana']],
  ['match', leaf('title', 'match', '^[A-Z]'), ['Apple', 'Banana']],
  ['imatch', leaf('title', 'imatch', 'AN+A$'), ['Banana']],
  ['is null', leaf('qty', 'is', null), ['cherry']],
  ['is not_null', leaf('qty', 'is', 'not_null'), ['Apple', 'apricot', 'Banana']],
  ['is true', leaf('done', 'is', true), ['Apple', 'cherry']],
  ['is false', leaf('done', 'is', false), ['apricot']],
  ['in numbers', leaf('qty', 'in', [9, '600', 7]), ['apricot', 'Banana']],
  ['in texts with commas', leaf('title', 'in', ['Apple', 'a,b']), ['Apple']],
  ['in nothing', leaf('title', 'in', []), []],
  ['in json', leaf('meta', 'in', ['{"color":"orange"}', [1, 2, 3]]), ['apricot', 'Banana']],
  ['cs json object', leaf('meta', 'cs', { size: {} }), ['Apple']],
  ['cs json from text', leaf('meta', 'cs', '{"color":"red"}'), ['Apple']],
  ['cs json array holds a scalar', leaf('meta', 'cs', 2), ['Banana']],
  ['cd json', leaf('meta', 'cd', { color: 'orange', extra: 1 }), ['apricot']],
  ['cs array', leaf('tags', 'cs', ['b']), ['Apple', 'apricot']],
  ['cs array literal', leaf('tags', 'cs', '{a,b}'), ['Apple']],
  ['cd array', leaf('tags', 'cd', ['a', 'b', 'z']), ['Apple', 'Banana']],
  ['ov array', leaf('tags', 'ov', '{c,z}'), ['apricot']],
  ['isdistinct', leaf('done', 'isdistinct', true), ['apricot', 'Banana']],
  ['not eq keeps NULLs out', not(leaf('done', 'eq', true)), ['apricot']],
  ['not is null', not(leaf('due', 'is', null)), ['Apple', 'apricot', 'cherry']],
  ['not in', not(leaf('qty', 'in', [9, 10])), ['Banana']],
  ['not like', not(leaf('title', 'like', '%a%')), ['Apple', 'cherry']],
  ['not cs', not(leaf('tags', 'cs', ['b'])), ['Banana']],
  ['not ov', not(leaf('tags', 'ov', ['a'])), ['apricot', 'Banana']],
  ['or', { kind: 'or', conditions: [leaf('qty', 'gt', 500), leaf('title', 'eq', 'cherry')] }, ['Banana', 'cherry']],
  [
    'nested and inside or',
    {
      kind: 'or',
      conditions: [
        leaf('qty', 'gt', 500),
        { kind: 'and', conditions: [leaf('done', 'is', true), leaf('qty', 'lt', 20)] },
      ],
    },
    ['Apple', 'Banana'],
  ],
  [
    'not and',
    not({ kind: 'and', conditions: [leaf('done', 'is', true), leaf('qty', 'is', null)] }),
    ['Apple', 'apricot', 'Banana'],
  ],
  ['empty and', { kind: 'and', conditions: [] }, ['Apple', 'apricot', 'Banana', 'cherry']],
  ['empty or', { kind: 'or', conditions: [] }, []],
  ['hostile text is data', leaf('title', 'eq', "x' OR '1'='1"), []],
  ['gt on json follows jsonb order', leaf('meta', 'gt', '[1,2]'), ['Apple', 'apricot', 'Banana']],
  ['->> text', at('meta', 'eq', 'red', '->>color'), ['Apple']],
  ['->> like', at('meta', 'like', 'o%', '->>color'), ['apricot']],
  ['->> compares text', at('meta', 'gt', 'p', '->>color'), ['Apple']],
  ['-> compares JSON', at('meta', 'eq', '"red"', '->color'), ['Apple']],
  ['nested ->>', at('meta', 'eq', '1', '->size', '->>w'), ['Apple']],
  ['->> of an object is jsonb text', at('meta', 'eq', '{"w": 1}', '->>size'), ['Apple']],
  ['nested -> gt in jsonb order', at('meta', 'gt', '0', '->size', '->w'), ['Apple']],
  ['array index', at('meta', 'eq', '1', '->0'), ['Banana']],
  ['negative index', at('meta', 'eq', '3', '->-1'), ['Banana']],
  ['index on an array column', at('tags', 'in', ['a', 'b'], '->>0'), ['Apple', 'apricot']],
  ['->> is null where the path leads nowhere', at('meta', 'is', null, '->>color'), ['Banana', 'cherry']],
  ['-> is not_null', at('meta', 'is', 'not_null', '->color'), ['Apple', 'apricot']],
  ['cs on a path', at('meta', 'cs', '{"w":1}', '->size'), ['Apple']],
  ['not on a path keeps NULLs out', not(at('meta', 'eq', 'red', '->>color')), ['apricot']],
  ['isdistinct on a path', at('meta', 'isdistinct', 'red', '->>color'), ['apricot', 'Banana', 'cherry']],
  ['match on a path', at('meta', 'imatch', '^RE', '->>color'), ['Apple']],
  ['a hostile key is data', at('meta', 'eq', 'x', "->>'; DROP TABLE accounts; --"), []],
  ['a quoted key is data', at('meta', 'is', 'not_null', '->"color"', "->>a'b"), []],
  ['a unicode key', at('meta', 'eq', 'x', '->>ключ 🔑'), []],
  ['a $ key is a key, not a path', at('meta', 'is', 'not_null', '->>$.color'), []],
  ['hostile pattern is data', leaf('note', 'like', "%'; DROP TABLE accounts; --"), []],
];

// Refused filters: an unknown column, an operator that does not fit the column, a value that does not convert.
const refusals: Array<[string, Condition, string]> = [
  ['unknown column', leaf('nope', 'eq', 1), '42703'],
  ['SQL as a column', leaf('qty"; DROP TABLE accounts; --', 'eq', 1), '42703'],
  ['prototype key as a column', leaf('__proto__', 'eq', 1), '42703'],
  ['text for a number', leaf('qty', 'eq', '1 OR 1=1'), '22P02'],
  ['text for a boolean', leaf('done', 'eq', 'maybe'), '22P02'],
  ['text for a date', leaf('due', 'gt', 'now'), '22P02'],
  ['like on a number', leaf('qty', 'like', '1%'), '42883'],
  ['a JSON path on text', at('title', 'eq', 'x', '->a'), '42883'],
  ['a step after ->>', at('meta', 'eq', 'x', '->>size', '->w'), '42883'],
  ['a JSON path too long', at('meta', 'eq', 'x', ...Array.from({ length: 101 }, () => '->a')), 'PGRST100'],
  ['NUL in a JSON key', at('meta', 'eq', 'x', '->>a\u0000b'), '22021'],
  ['an index past integer', at('meta', 'eq', '1', '->3000000000'), '22003'],
  ['text that is not JSON after ->', at('meta', 'eq', 'red', '->color'), '22P02'],
  ['like after ->', at('meta', 'like', 'r%', '->color'), '42883'],
  ['is true after ->>', at('meta', 'is', true, '->>color'), '42883'],
  ['ov after ->', at('meta', 'ov', '[1]', '->size'), '42883'],
  ['is true on text', leaf('title', 'is', true), '42883'],
  ['cs on text', leaf('title', 'cs', ['a']), '42883'],
  ['ov on json', leaf('meta', 'ov', [1]), '42883'],
  ['a broken regex', leaf('title', 'match', '(['), '2201B'],
];

describe.each(testDialects)('record filters on %s', (dialect) => {
  let server: TestServer;
  let db: Db;
  let alice: SignedInAccount;
  let table: TableDefinition;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    db = server.app.basalt.db;
    alice = await signIn(server, 'alice');
    table = await createItemsTable(db, alice);
    await createRecords(db, alice, table, rows);
  });
  afterAll(() => server.close());

  it.each(filters)('%s', async (_, where, titles) => {
    expect((await listRecords(db, alice, table, { where })).map((r) => r.title)).toEqual(titles);
    expect(await countRecords(db, alice, table, where)).toBe(titles.length);
  });

  it.each(refusals)('refuses %s', async (_, where, code) => {
    await expect(listRecords(db, alice, table, { where })).rejects.toMatchObject({ status: 400, code });
  });

  it('refuses trees nested too deep', async () => {
    let where: Condition = leaf('qty', 'eq', 1);
    for (let i = 0; i < 40; i++) where = not(where);
    await expect(listRecords(db, alice, table, { where })).rejects.toMatchObject({ status: 400 });
  });

  it.each<[string, OrderTerm[], string[]]>([
    ['asc puts NULLs last', [{ column: 'qty', direction: 'asc' }], ['apricot', 'Apple', 'Banana', 'cherry']],
    ['desc puts NULLs first', [{ column: 'qty', direction: 'desc' }], ['cherry', 'Banana', 'Apple', 'apricot']],
    [
      'asc nulls first',
      [{ column: 'qty', direction: 'asc', nulls: 'first' }],
      ['cherry', 'apricot', 'Apple', 'Banana'],
    ],
    [
      'desc nulls last',
      [{ column: 'qty', direction: 'desc', nulls: 'last' }],
      ['Banana', 'Apple', 'apricot', 'cherry'],
    ],
    [
      'several terms',
      [
        { column: 'done', direction: 'desc', nulls: 'last' },
        { column: 'id', direction: 'desc' },
      ],
      ['cherry', 'Apple', 'apricot', 'Banana'],
    ],
    ['by date', [{ column: 'due', direction: 'asc' }], ['cherry', 'Apple', 'apricot', 'Banana']],
    ['by json in jsonb order', [{ column: 'meta', direction: 'asc' }], ['Banana', 'apricot', 'Apple', 'cherry']],
    [
      'by a ->> path',
      [
        { column: 'meta', path: [{ arrow: '->>', key: 'color' }], direction: 'asc' },
        { column: 'id', direction: 'asc' },
      ],
      ['apricot', 'Apple', 'Banana', 'cherry'],
    ],
    [
      'by a -> path, descending',
      [
        { column: 'tags', path: [{ arrow: '->', key: 0 }], direction: 'desc' },
        { column: 'id', direction: 'asc' },
      ],
      ['Banana', 'cherry', 'apricot', 'Apple'],
    ],
  ])('orders: %s', async (_, order, titles) => {
    expect((await listRecords(db, alice, table, { order })).map((r) => r.title)).toEqual(titles);
  });

  it('refuses to order by a JSON path on text or after ->>', async () => {
    for (const path of [
      [{ arrow: '->', key: 'a' }],
      [
        { arrow: '->>', key: 'a' },
        { arrow: '->', key: 'b' },
      ],
    ] as const) {
      const column = path.length === 1 ? 'title' : 'meta';
      await expect(
        listRecords(db, alice, table, { order: [{ column, path, direction: 'asc' }] }),
      ).rejects.toMatchObject({ status: 400, code: '42883' });
    }
  });

  it('refuses to order by an unknown or hostile column', async () => {
    for (const column of ['nope', 'qty; DROP TABLE accounts', 'qty desc']) {
      await expect(listRecords(db, alice, table, { order: [{ column, direction: 'asc' }] })).rejects.toMatchObject({
        code: '42703',
      });
    }
  });

  it('pages with limit and offset, ordered by id by default', async () => {
    const page = (limit: number | null, offset: number) =>
      listRecords(db, alice, table, { limit, offset }).then((r) => r.map((x) => x.title));
    expect(await page(2, 0)).toEqual(['Apple', 'apricot']);
    expect(await page(2, 3)).toEqual(['cherry']);
    expect(await page(null, 2)).toEqual(['Banana', 'cherry']);
    expect(await page(0, 0)).toEqual([]);
    expect(await page(5, 10)).toEqual([]);
    for (const [limit, offset] of [
      [-1, 0],
      [1.5, 0],
      [1, -1],
    ]) {
      await expect(listRecords(db, alice, table, { limit, offset })).rejects.toMatchObject({ status: 400 });
    }
  });
});
