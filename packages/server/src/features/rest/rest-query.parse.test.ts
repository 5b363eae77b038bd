import { describe, expect, it } from 'vitest';
import { errorOf, parseFailure } from '../../testing/rest-query.fixtures.js';
import { offsetBeyondTotal, undefinedColumn, unknownBodyColumn } from './rest-query.errors.js';
import { columnReferences, combineRange, hasFilters, parseRestQuery, queryPairs } from './rest-query.parse.js';

describe('the wire strings supabase-js sends', () => {
  it('select, filter, order and range', () => {
    const q = parseRestQuery('?select=id%2Ctitle&done=eq.false&order=id.asc&offset=0&limit=10');
    expect(q.select.map((s) => (s.kind === 'field' ? s.field.column : '*'))).toEqual(['id', 'title']);
    expect(q.filters).toHaveLength(1);
    expect(q.order).toHaveLength(1);
    expect(q.range).toEqual({ offset: 0, limit: 10 });
  });

  it('ilike with + as a space, in with a quoted comma, is null', () => {
    const q = parseRestQuery('title=ilike.%25a+b%25&id=in.%281%2C2%2C%22x%2Cy%22%29&qty=is.null');
    expect(q.filters.map((f) => f.operation)).toEqual([
      { kind: 'pattern', op: 'ilike', value: '%a b%' },
      { kind: 'in', values: ['1', '2', 'x,y'] },
      { kind: 'is', value: 'null' },
    ]);
  });

  it('or with a nested and', () => {
    const [tree] = parseRestQuery('or=%28qty.gt.5%2Cand%28done.is.true%2Cqty.lt.2%29%29').logic;
    expect(tree?.kind).toBe('or');
    expect(tree?.kind !== 'filter' && tree?.children.map((c) => c.kind)).toEqual(['filter', 'and']);
  });

  it('contains with JSON, desc nullsfirst, columns, on_conflict', () => {
    expect(parseRestQuery('meta=cs.%7B%22a%22%3A1%7D').filters[0]?.operation).toEqual({
      kind: 'contains',
      op: 'cs',
      value: '{"a":1}',
    });
    expect(parseRestQuery('order=qty.desc.nullsfirst').order[0]).toMatchObject({ direction: 'desc', nulls: 'first' });
    expect(parseRestQuery('columns=%22title%22%2C%22qty%22').columns).toEqual(['title', 'qty']);
    expect(parseRestQuery('on_conflict=id&select=*').onConflict).toEqual(['id']);
  });
});

describe('parseRestQuery', () => {
  it('has defaults for an empty request', () => {
    expect(parseRestQuery('')).toEqual({
      select: [{ kind: 'star' }],
      filters: [],
      logic: [],
      order: [],
      range: { offset: 0, limit: null },
      onConflict: null,
      columns: null,
      prefer: { return: null, count: null, resolution: null, missing: null },
      format: 'json',
      embedded: {},
    });
  });

  it('takes URLSearchParams and reads headers', () => {
    const q = parseRestQuery(new URLSearchParams({ select: 'id', qty: 'gt.1' }), {
      prefer: 'count=exact',
      accept: 'application/vnd.pgrst.object+json',
      'accept-profile': 'public',
    });
    expect(q.select).toHaveLength(1);
    expect(q.prefer.count).toBe('exact');
    expect(q.format).toBe('object');
  });

  it('ANDs repeated filters on one column, and keeps several logic trees', () => {
    const q = parseRestQuery('qty=gt.1&qty=lt.9&or=(a.eq.1,b.eq.2)&and=(c.eq.3)&not.or=(d.eq.4)&not.and=(e.eq.5)');
    expect(q.filters.map((f) => f.operation)).toEqual([
      { kind: 'compare', op: 'gt', value: '1' },
      { kind: 'compare', op: 'lt', value: '9' },
    ]);
    expect(q.logic.map((t) => (t.kind === 'filter' ? 'filter' : `${t.negated ? 'not.' : ''}${t.kind}`))).toEqual([
      'or',
      'and',
      'not.or',
      'not.and',
    ]);
  });

  it('takes the first of repeated reserved parameters', () => {
    const q = parseRestQuery('select=id&select=title&limit=5&limit=6&order=id&order=qty');
    expect(q.select).toEqual([{ kind: 'field', field: { column: 'id', jsonPath: [] }, alias: null, cast: null }]);
    expect(q.range.limit).toBe(5);
    expect(q.order.map((o) => o.field.column)).toEqual(['id']);
  });

  it('ignores the apikey parameter, bare keys and empty reserved values', () => {
    const q = parseRestQuery('apikey=abc.def&debug&select=&order=&limit=&offset=&columns=&on_conflict=');
    expect(q.filters).toEqual([]);
    expect(q.select).toEqual([{ kind: 'star' }]);
    expect(q.order).toEqual([]);
    expect(q.range).toEqual({ offset: 0, limit: null });
    expect(q.columns).toBeNull();
    expect(q.onConflict).toBeNull();
  });

  it('refuses a filter with an empty value, as PostgREST does', () => {
    expect(errorOf(() => parseRestQuery('qty=')).message).toBe('"failed to parse filter ()" (line 1, column 1)');
  });

  it('reads the filters and parameters of embedded resources by their path', () => {
    const q = parseRestQuery('author.order=name.desc&author.limit=1&author.offset=2&author.name=eq.x&a.b.or=(id.eq.1)');
    expect(q.filters).toEqual([]);
    expect(q.embedded.author).toMatchObject({
      order: [{ field: { column: 'name' }, direction: 'desc' }],
      limit: 1,
      offset: 2,
      filters: [{ field: { column: 'name' }, operation: { kind: 'compare', op: 'eq', value: 'x' } }],
    });
    expect(q.embedded['a.b']?.logic).toHaveLength(1);
    expect(errorOf(() => parseRestQuery('author.limit=x')).code).toBe('PGRST100');
    expect(errorOf(() => parseRestQuery('author.limit=-1')).code).toBe('PGRST103');
  });

  it('keeps malformed percent escapes as written', () => {
    expect(queryPairs('title=eq.100%&x=%E2%82%AC%zz')).toEqual([
      ['title', 'eq.100%'],
      ['x', '€%zz'],
    ]);
  });

  it('checks headers before the query string', () => {
    expect(errorOf(() => parseRestQuery('qty=bad', { 'accept-profile': 'other' })).code).toBe('PGRST106');
    expect(errorOf(() => parseRestQuery('', { accept: 'application/xml' })).code).toBe('PGRST107');
  });
});

describe('limit, offset and Range', () => {
  it.each<[string, { offset: number; limit: number | null }]>([
    ['limit=10', { offset: 0, limit: 10 }],
    ['limit=0', { offset: 0, limit: 0 }],
    ['offset=20', { offset: 20, limit: null }],
    ['offset=20&limit=5', { offset: 20, limit: 5 }],
    ['limit= 7 ', { offset: 0, limit: 7 }],
    ['offset=-4', { offset: 0, limit: null }],
    ['limit=-0', { offset: 0, limit: 0 }],
    ['limit=99999999999999999999999', { offset: 0, limit: Number.MAX_SAFE_INTEGER }],
  ])('%s', (query, range) => {
    expect(parseRestQuery(query).range).toEqual(range);
  });

  it('answers PGRST103 (416) for a negative limit', () => {
    expect(errorOf(() => parseRestQuery('limit=-1'))).toEqual({
      status: 416,
      code: 'PGRST103',
      message: 'Requested range not satisfiable',
      details: 'Limit should be greater than or equal to zero.',
      hint: null,
    });
  });

  it.each<[string, string, number, string]>([
    ['limit=abc', 'limit parameter (abc)', 1, 'unexpected "a" expecting digit'],
    ['limit=1.5', 'limit parameter (1.5)', 2, 'unexpected "." expecting digit'],
    ['limit=10;drop', 'limit parameter (10;drop)', 3, 'unexpected ";" expecting digit'],
    ['offset=1e3', 'offset parameter (1e3)', 2, 'unexpected "e" expecting digit'],
    ['offset=-x', 'offset parameter (-x)', 2, 'unexpected "x" expecting digit'],
  ])('answers PGRST100 for %s', (query, target, column, details) => {
    expect(errorOf(() => parseRestQuery(query))).toEqual(parseFailure(target, column, details));
  });

  it('intersects the Range header with limit and offset on GET and HEAD only', () => {
    expect(parseRestQuery('', { range: '0-9', 'range-unit': 'items' }).range).toEqual({ offset: 0, limit: 10 });
    expect(parseRestQuery('', { range: '10-' }, { method: 'HEAD' }).range).toEqual({ offset: 10, limit: null });
    expect(parseRestQuery('limit=2', { range: '0-0' }).range).toEqual({ offset: 0, limit: 1 });
    expect(parseRestQuery('offset=5&limit=10', { range: '0-7' }).range).toEqual({ offset: 5, limit: 3 });
    expect(parseRestQuery('', { range: '0-9' }, { method: 'PATCH' }).range).toEqual({ offset: 0, limit: null });
    expect(errorOf(() => parseRestQuery('', { range: '5-1' })).code).toBe('PGRST103');
  });

  it('combineRange never yields a negative limit', () => {
    expect(combineRange(5, 10, { lower: 20, upper: 30 })).toEqual({ offset: 20, limit: 0 });
  });
});

describe('hostile input', () => {
  it.each([
    'select=id;drop table t_1;--',
    'select=id)%20union%20select%20*%20from%20users--',
    'order=id;drop table t_1',
    'order=id.desc,(select 1)',
    'columns=a;b',
    'on_conflict=id)',
    'or=(a.eq.1);drop table x',
    'qty=eq.1&or=(a.eq.1,b.eq.2',
  ])('refuses %j with a 4xx', (query) => {
    const error = errorOf(() => parseRestQuery(query));
    expect(error.status).toBeGreaterThanOrEqual(400);
    expect(error.status).toBeLessThan(500);
  });

  it('passes SQL through names and values as plain strings', () => {
    const q = parseRestQuery(
      `${encodeURIComponent('"x\\"; drop table t_1;--"')}=eq.${encodeURIComponent("'; delete from accounts;--")}&select=${encodeURIComponent('"a\\"b"')}`,
    );
    expect(q.filters[0]).toEqual({
      field: { column: 'x"; drop table t_1;--', jsonPath: [] },
      negated: false,
      operation: { kind: 'compare', op: 'eq', value: "'; delete from accounts;--" },
    });
    expect(columnReferences(q)).toEqual([
      { column: 'a"b', source: 'select' },
      { column: 'x"; drop table t_1;--', source: 'filter' },
    ]);
  });

  it('survives long and odd input', () => {
    const long = 'a'.repeat(20_000);
    expect(parseRestQuery(`${long}=eq.${long}`).filters[0]?.field.column).toHaveLength(20_000);
    expect(parseRestQuery('q=eq.%F0%9F%98%80%00').filters[0]?.operation).toEqual({
      kind: 'compare',
      op: 'eq',
      value: '😀\0',
    });
    const many = Array.from({ length: 2000 }, (_, i) => `c${i}=eq.${i}`).join('&');
    expect(parseRestQuery(many).filters).toHaveLength(2000);
  });
});

describe('helpers for the wiring', () => {
  it('hasFilters sees column filters and logic trees', () => {
    expect(hasFilters(parseRestQuery('select=*'))).toBe(false);
    expect(hasFilters(parseRestQuery('id=eq.1'))).toBe(true);
    expect(hasFilters(parseRestQuery('or=(id.eq.1,id.eq.2)'))).toBe(true);
  });

  it('columnReferences lists every named column with its source', () => {
    const q = parseRestQuery(
      'select=id,t:title,meta->>a&qty=gt.1&or=(a.eq.1,and(b.eq.2))&order=c.desc&on_conflict=d&columns="e"',
    );
    expect(columnReferences(q)).toEqual([
      { column: 'id', source: 'select' },
      { column: 'title', source: 'select' },
      { column: 'meta', source: 'select' },
      { column: 'qty', source: 'filter' },
      { column: 'a', source: 'filter' },
      { column: 'b', source: 'filter' },
      { column: 'c', source: 'order' },
      { column: 'd', source: 'on_conflict' },
      { column: 'e', source: 'columns' },
    ]);
  });

  it('builds the errors the wiring raises after checking the table', () => {
    expect(undefinedColumn('todos', 'banana').body()).toEqual({
      code: '42703',
      details: null,
      hint: null,
      message: 'column todos.banana does not exist',
    });
    expect(unknownBodyColumn('todos', 'x').body().message).toBe(
      "Could not find the 'x' column of 'todos' in the schema cache",
    );
    expect(offsetBeyondTotal(30, 25).body().details).toBe('An offset of 30 was requested, but there are only 25 rows.');
    expect(offsetBeyondTotal(30, 25).status).toBe(416);
  });
});
