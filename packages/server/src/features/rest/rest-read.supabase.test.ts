import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RestUser, seedTodos, signUpRestUser, startRestServer, TODOS } from '../../testing/rest.fixtures.js';
import { type TestServer, testDialects } from '../../testing/test-server.js';

// Reads through @supabase/supabase-js itself over real HTTP: every filter operator,
// logic trees, order, range, count, head, single and maybeSingle, on both engines.

type Query = ReturnType<ReturnType<SupabaseClient['from']>['select']>;

// [name, filter applied to `select('*')`, titles expected in id order]
const filters: Array<[string, (q: Query) => Query, string[]]> = [
  ['eq on text', (q) => q.eq('title', 'banana'), ['banana']],
  ['eq on a number sent as text', (q) => q.eq('qty', 5), ['Apple']],
  ['eq on a boolean', (q) => q.eq('done', false), ['banana']],
  ['eq on a date', (q) => q.eq('due', '2025-02-01T00:00:00Z'), ['banana']],
  ['neq skips NULL', (q) => q.neq('qty', 5), ['banana', 'date 100%']],
  ['gt compares numerically', (q) => q.gt('qty', 9), ['banana']],
  ['gte', (q) => q.gte('qty', 9), ['banana', 'date 100%']],
  ['lt', (q) => q.lt('qty', 9), ['Apple']],
  ['lte', (q) => q.lte('qty', 9), ['Apple', 'date 100%']],
  ['lt on a date', (q) => q.lt('due', '2025-02-15'), ['Apple', 'banana']],
  ['like is case-sensitive', (q) => q.like('title', '%an%'), ['banana']],
  ['like with * as %', (q) => q.like('title', 'A*'), ['Apple']],
  ['like does not fold case', (q) => q.like('title', 'apple'), []],
  ['like does not fold case with a wildcard', (q) => q.like('title', 'c%'), []],
  ['ilike folds case', (q) => q.ilike('title', 'apple'), ['Apple']],
  ['like with an escaped %', (q) => q.like('title', '%100\\%'), ['date 100%']],
  ['like with _', (q) => q.like('note', 'x_y'), ['date 100%']],
  ['ilike is case-insensitive', (q) => q.ilike('title', '%AN%'), ['banana']],
  ['ilike over several words', (q) => q.ilike('title', 'cherry%'), ['Cherry pie']],
  ['is null', (q) => q.is('qty', null), ['Cherry pie']],
  ['is true', (q) => q.is('done', true), ['Apple', 'date 100%']],
  ['is false', (q) => q.is('done', false), ['banana']],
  ['not is null', (q) => q.not('qty', 'is', null), ['Apple', 'banana', 'date 100%']],
  ['in on text with a comma', (q) => q.in('note', ['sweet, tart', 'crisp']), ['Apple', 'Cherry pie']],
  ['in on numbers', (q) => q.in('qty', [5, 9]), ['Apple', 'date 100%']],
  ['in with an empty list', (q) => q.in('qty', []), []],
  ['not in', (q) => q.not('qty', 'in', '(5,9)'), ['banana']],
  ['not eq', (q) => q.not('title', 'eq', 'Apple'), ['banana', 'Cherry pie', 'date 100%']],
  ['cs on json: key subset', (q) => q.contains('meta', { a: 1 }), ['Apple', 'date 100%']],
  ['cs on json: nested', (q) => q.contains('meta', { b: { c: 2 } }), ['Apple']],
  ['cs on an array', (q) => q.contains('tags', ['fruit']), ['Apple', 'banana']],
  ['cd on an array', (q) => q.containedBy('tags', ['red', 'fruit', 'brown']), ['Apple', 'Cherry pie', 'date 100%']],
  ['cd on json', (q) => q.containedBy('meta', { a: 1, b: { c: 2 }, z: 0 }), ['Apple', 'date 100%']],
  ['ov on an array', (q) => q.overlaps('tags', ['yellow', 'brown']), ['banana', 'date 100%']],
  ['isdistinct counts NULL', (q) => q.isDistinct('done', true), ['banana', 'Cherry pie']],
  ['match', (q) => q.match({ title: 'Apple', qty: 5 }), ['Apple']],
  ['regex match', (q) => q.regexMatch('title', '^[A-C]'), ['Apple', 'Cherry pie']],
  ['regex imatch', (q) => q.regexIMatch('title', '^b'), ['banana']],
  ['likeAnyOf', (q) => q.likeAnyOf('title', ['A*', 'b*']), ['Apple', 'banana']],
  ['ilikeAllOf', (q) => q.ilikeAllOf('title', ['%A%', '%N%']), ['banana']],
  ['or', (q) => q.or('qty.gt.10,title.eq.Apple'), ['Apple', 'banana']],
  ['or with a nested and', (q) => q.or('qty.gt.10,and(done.is.true,qty.lt.6)'), ['Apple', 'banana']],
  ['or with a quoted value', (q) => q.or('note.eq."sweet, tart",qty.eq.9'), ['Cherry pie', 'date 100%']],
  ['or with not', (q) => q.or('not.and(done.is.true,qty.lt.6),qty.is.null'), ['banana', 'Cherry pie', 'date 100%']],
  [
    'and with an or inside, ANDed with a filter',
    (q) => q.gte('qty', 5).or('done.is.false,title.like.d*'),
    ['banana', 'date 100%'],
  ],
  ['filter on id', (q) => q.eq('id', 2), ['banana']],
  ['filter values are data, never SQL', (q) => q.eq('title', "x' OR '1'='1"), []],
  // JSON paths: `->>` reads text, `->` JSON, on json and array columns.
  ['eq on a ->> path', (q) => q.eq('meta->>a', '1'), ['Apple', 'date 100%']],
  ['eq on a -> path compares JSON', (q) => q.eq('meta->a', 2), ['banana']],
  ['gt on a -> path in jsonb order', (q) => q.gt('meta->a', 1), ['banana']],
  ['a nested path', (q) => q.eq('meta->b->>c', '2'), ['Apple']],
  ['is null where the path leads nowhere', (q) => q.is('meta->b', null), ['banana', 'Cherry pie', 'date 100%']],
  ['like on an array element', (q) => q.like('tags->>0', '*e*'), ['Apple', 'banana']],
  ['in on an array element', (q) => q.in('tags->>0', ['red', 'brown']), ['Apple', 'date 100%']],
  ['cs on a path', (q) => q.contains('meta->b', { c: 2 }), ['Apple']],
  ['not on a path', (q) => q.not('meta->>a', 'eq', '1'), ['banana']],
  ['paths in an or tree', (q) => q.or('meta->>a.eq.2,tags->>0.eq.brown'), ['banana', 'date 100%']],
  ['match on paths', (q) => q.match({ 'meta->>a': '1', 'tags->>0': 'brown' }), ['date 100%']],
  ['a path to a key no row has', (q) => q.eq('meta->>"x\'); DROP TABLE accounts; --"', '1'), []],
];

describe.each(testDialects)('/rest/v1 reads with supabase-js on %s', (dialect) => {
  let server: TestServer;
  let alice: RestUser;
  let ids: number[];
  const table = 'todos';

  beforeAll(async () => {
    server = await startRestServer(dialect);
    alice = await signUpRestUser(server);
    ids = (await seedTodos(alice, table)).map((row) => row.id as number);
  });
  afterAll(() => server.close());

  it.each(filters)('%s', async (_name, apply, expected) => {
    const { data, error, status } = await apply(alice.client.from(table).select('*')).order('id');
    expect(error).toBeNull();
    expect(status).toBe(200);
    expect(((data ?? []) as Array<{ title: string }>).map((row) => row.title)).toEqual(expected);
  });

  it('returns every column, typed, in the records service order', async () => {
    const { data } = await alice.client.from(table).select().eq('title', 'Apple').single();
    expect(data).toEqual({
      id: ids[0],
      ...TODOS[0],
      due: '2025-01-01T00:00:00.000Z',
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(Object.keys(data ?? {})).toEqual(['id', ...Object.keys(TODOS[0] ?? {}), 'created_at', 'updated_at']);
  });

  it('selects, renames, casts and follows JSON paths', async () => {
    const { data, error } = await alice.client
      .from(table)
      .select('title, label:code, qty::text, meta->a, meta->b->>c, tags->0')
      .eq('title', 'Apple');
    expect(error).toBeNull();
    expect(data).toEqual([{ title: 'Apple', label: 'A1', qty: '5', a: 1, c: '2', tags: 'red' }]);
  });

  it.each([
    ['qty ascending: NULLS LAST', { column: 'qty', ascending: true }, ['Apple', 'date 100%', 'banana', 'Cherry pie']],
    [
      'qty descending: NULLS FIRST',
      { column: 'qty', ascending: false },
      ['Cherry pie', 'banana', 'date 100%', 'Apple'],
    ],
    [
      'descending with nulls last',
      { column: 'qty', ascending: false, nullsFirst: false },
      ['banana', 'date 100%', 'Apple', 'Cherry pie'],
    ],
    [
      'ascending with nulls first',
      { column: 'qty', ascending: true, nullsFirst: true },
      ['Cherry pie', 'Apple', 'date 100%', 'banana'],
    ],
    ['text', { column: 'title', ascending: false }, ['date 100%', 'banana', 'Cherry pie', 'Apple']],
    [
      'a -> path descending, ties by id',
      { column: 'meta->a', ascending: false },
      ['Cherry pie', 'banana', 'Apple', 'date 100%'],
    ],
    ['a ->> path', { column: 'tags->>0', ascending: true }, ['date 100%', 'Apple', 'banana', 'Cherry pie']],
    ['json in jsonb order', { column: 'meta', ascending: true }, ['date 100%', 'banana', 'Apple', 'Cherry pie']],
  ])('orders by %s', async (_name, { column, ...options }, expected) => {
    const { data } = await alice.client.from(table).select('title').order(column, options).order('id');
    expect(data?.map((row) => row.title)).toEqual(expected);
  });

  it('orders by several columns', async () => {
    const { data } = await alice.client.from(table).select('title').order('done').order('qty', { ascending: false });
    expect(data?.map((row) => row.title)).toEqual(['banana', 'date 100%', 'Apple', 'Cherry pie']);
  });

  it('pages with range and limit', async () => {
    const range = await alice.client.from(table).select('title').order('id').range(1, 2);
    expect(range.data?.map((row) => row.title)).toEqual(['banana', 'Cherry pie']);
    const limit = await alice.client.from(table).select('title').order('id').limit(1);
    expect(limit.data?.map((row) => row.title)).toEqual(['Apple']);
    const zero = await alice.client.from(table).select('title').limit(0);
    expect(zero.data).toEqual([]);
  });

  it.each(['exact', 'planned', 'estimated'] as const)(
    'counts (%s) with the page and answers 206 for part of it',
    async (count) => {
      const page = await alice.client.from(table).select('title', { count }).order('id').range(0, 1);
      expect(page).toMatchObject({ count: 4, status: 206, error: null });
      expect(page.data).toHaveLength(2);
      const all = await alice.client.from(table).select('*', { count }).gte('qty', 9);
      expect(all).toMatchObject({ count: 2, status: 200 });
    },
  );

  it('counts with head: true and no body', async () => {
    const head = await alice.client.from(table).select('*', { count: 'exact', head: true }).not('qty', 'is', null);
    expect(head).toMatchObject({ data: null, count: 3, status: 200, error: null });
  });

  it('single returns one object, and a 406 PGRST116 for 0 or many', async () => {
    const one = await alice.client.from(table).select('title').eq('id', ids[1]).single();
    expect(one).toMatchObject({ data: { title: 'banana' }, status: 200, error: null });
    const none = await alice.client.from(table).select().eq('id', -1).single();
    expect(none.status).toBe(406);
    expect(none.error).toMatchObject({ code: 'PGRST116', details: 'The result contains 0 rows' });
    const many = await alice.client.from(table).select().gte('qty', 0).single();
    expect(many.error).toMatchObject({ code: 'PGRST116', details: 'The result contains 3 rows' });
  });

  it('maybeSingle gives null for 0 rows, the object for 1 and an error for many', async () => {
    const none = await alice.client.from(table).select().eq('id', -1).maybeSingle();
    expect(none).toMatchObject({ data: null, error: null });
    const one = await alice.client.from(table).select('code').eq('title', 'banana').maybeSingle();
    expect(one).toMatchObject({ data: { code: 'B2' }, error: null });
    const many = await alice.client.from(table).select().maybeSingle();
    expect(many.error).toMatchObject({ code: 'PGRST116' });
  });

  it('throwOnError throws the PostgrestError', async () => {
    await expect(alice.client.from(table).select('banana').throwOnError()).rejects.toMatchObject({
      code: '42703',
      message: `column ${table}.banana does not exist`,
    });
  });
});
