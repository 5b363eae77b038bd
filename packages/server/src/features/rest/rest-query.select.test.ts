import { describe, expect, it } from 'vitest';
import { errorOf, parseFailure } from '../../testing/rest-query.fixtures.js';
import { parseColumnList, parseOrder, parseSelect } from './rest-query.select.js';
import type { OrderTerm, SelectItem } from './rest-query.types.js';

const col = (column: string, extra: Partial<Extract<SelectItem, { kind: 'field' }>> = {}): SelectItem => ({
  kind: 'field',
  field: { column, jsonPath: [] },
  alias: null,
  cast: null,
  ...extra,
});

describe('parseSelect', () => {
  it.each<[string, SelectItem[]]>([
    ['*', [{ kind: 'star' }]],
    ['', [{ kind: 'star' }]],
    ['id', [col('id')]],
    ['id,title,qty', [col('id'), col('title'), col('qty')]],
    ['id, title', [col('id'), col('title')]],
    ['*,id', [{ kind: 'star' }, col('id')]],
    ['"my col"', [col('my col')]],
    ['"a,b"', [col('a,b')]],
    ['"a\\"b"', [col('a"b')]],
    ['label:title', [col('title', { alias: 'label' })]],
    ['"my label":title', [col('title', { alias: 'my label' })]],
    ['qty::text', [col('qty', { cast: 'text' })]],
    ['qty::int', [col('qty', { cast: 'integer' })]],
    ['qty::float8', [col('qty', { cast: 'double precision' })]],
    ['qty::double precision', [col('qty', { cast: 'double precision' })]],
    ['done::BOOL', [col('done', { cast: 'boolean' })]],
    ['meta::jsonb', [col('meta', { cast: 'jsonb' })]],
    ['n:qty::numeric', [col('qty', { alias: 'n', cast: 'numeric' })]],
    [
      'meta->color',
      [
        {
          kind: 'field',
          field: { column: 'meta', jsonPath: [{ arrow: '->', key: 'color' }] },
          alias: null,
          cast: null,
        },
      ],
    ],
    [
      'c:meta->a->>b::text',
      [
        {
          kind: 'field',
          field: {
            column: 'meta',
            jsonPath: [
              { arrow: '->', key: 'a' },
              { arrow: '->>', key: 'b' },
            ],
          },
          alias: 'c',
          cast: 'text',
        },
      ],
    ],
    [
      'tags->0',
      [{ kind: 'field', field: { column: 'tags', jsonPath: [{ arrow: '->', key: 0 }] }, alias: null, cast: null }],
    ],
    ['my-col', [col('my-col')]],
    ['naïve', [col('naïve')]],
  ])('%j', (value, items) => {
    expect(parseSelect(value)).toEqual(items);
  });

  it.each<[string, number, string]>([
    ['id;drop table x', 3, 'unexpected ";" expecting letter, digit, "-", "->>", "->", "::", "," or end of input'],
    ['id,', 4, 'unexpected end of input expecting field name (* or [a..z0..9_$])'],
    [',id', 1, 'unexpected "," expecting field name (* or [a..z0..9_$])'],
    ['name::', 7, 'unexpected end of input expecting letter or digit'],
    ['*!hint', 2, 'unexpected "!" expecting ")", "," or end of input'],
    ['"open', 6, 'unexpected end of input expecting "\\""'],
    ['author(*', 9, 'unexpected end of input expecting ")"'],
    ['...author', 10, 'unexpected end of input expecting "(" or "!"'],
    ['author!a!b!c(id)', 11, 'unexpected "!" expecting "("'],
    [`${'a('.repeat(9)}id${')'.repeat(9)}`, 18, 'Embedded resources cannot be nested more than 8 levels deep'],
  ])('refuses %j at column %d', (value, column, details) => {
    expect(errorOf(() => parseSelect(value))).toEqual(parseFailure(`select parameter (${value})`, column, details));
  });

  it('reads embedded resources: aliases, hints, joins, spreads and nesting', () => {
    expect(parseSelect('id,a:author!author_id!inner(name,posts(*)),...tags!left(t:name)')).toEqual([
      { kind: 'field', field: { column: 'id', jsonPath: [] }, alias: null, cast: null },
      {
        kind: 'embed',
        name: 'author',
        alias: 'a',
        hint: 'author_id',
        join: 'inner',
        spread: false,
        select: [
          { kind: 'field', field: { column: 'name', jsonPath: [] }, alias: null, cast: null },
          {
            kind: 'embed',
            name: 'posts',
            alias: null,
            hint: null,
            join: null,
            spread: false,
            select: [{ kind: 'star' }],
          },
        ],
      },
      {
        kind: 'embed',
        name: 'tags',
        alias: null,
        hint: null,
        join: 'left',
        spread: true,
        select: [{ kind: 'field', field: { column: 'name', jsonPath: [] }, alias: 't', cast: null }],
      },
    ]);
    expect(parseSelect('comments(count())')).toEqual([
      {
        kind: 'embed',
        name: 'comments',
        alias: null,
        hint: null,
        join: null,
        spread: false,
        select: [{ kind: 'aggregate', fn: 'count', column: null, alias: null, cast: null }],
      },
    ]);
  });

  const agg = (fn: string, column: string | null, alias: string | null = null, cast: string | null = null) => ({
    kind: 'aggregate',
    fn,
    column,
    alias,
    cast,
  });
  it.each<[string, unknown[]]>([
    ['count()', [agg('count', null)]],
    ['total:count()', [agg('count', null, 'total')]],
    ['qty.sum()', [agg('sum', 'qty')]],
    ['qty.avg()::int', [agg('avg', 'qty', null, 'integer')]],
    [
      'id,n:qty.min()',
      [{ kind: 'field', field: { column: 'id', jsonPath: [] }, alias: null, cast: null }, agg('min', 'qty', 'n')],
    ],
  ])('reads the top-level aggregate %j', (value, expected) => {
    expect(parseSelect(value)).toEqual(expected);
  });

  it('reads aggregates inside an embed, beside the columns that group them', () => {
    expect(parseSelect('comments(topic,qty.sum(),n:count())')).toEqual([
      {
        kind: 'embed',
        name: 'comments',
        alias: null,
        hint: null,
        join: null,
        spread: false,
        select: [
          { kind: 'field', field: { column: 'topic', jsonPath: [] }, alias: null, cast: null },
          agg('sum', 'qty'),
          agg('count', null, 'n'),
        ],
      },
    ]);
  });

  it.each(['qty::text.max()', 'meta->a.sum()', 'comments(meta->a.sum())', 'comments(qty::text.max())'])(
    'refuses the aggregate %j with PGRST123',
    (value) => {
      expect(errorOf(() => parseSelect(value))).toEqual({
        status: 400,
        code: 'PGRST123',
        message: 'Use of aggregate functions is not allowed',
        details: null,
        hint: null,
      });
    },
  );

  it('refuses casts to types Basalt does not offer with 42704', () => {
    expect(errorOf(() => parseSelect('qty::regclass'))).toEqual({
      status: 400,
      code: '42704',
      message: 'type "regclass" does not exist',
      details: null,
      hint: null,
    });
    expect(errorOf(() => parseSelect('qty::text or 1')).code).toBe('42704');
  });
});

const term = (column: string, direction: 'asc' | 'desc', nulls: 'first' | 'last'): OrderTerm => ({
  field: { column, jsonPath: [] },
  direction,
  nulls,
});

describe('parseOrder', () => {
  it.each<[string, OrderTerm[]]>([
    ['id', [term('id', 'asc', 'last')]],
    ['id.asc', [term('id', 'asc', 'last')]],
    ['id.desc', [term('id', 'desc', 'first')]],
    ['qty.desc.nullslast', [term('qty', 'desc', 'last')]],
    ['qty.asc.nullsfirst', [term('qty', 'asc', 'first')]],
    ['qty.nullsfirst', [term('qty', 'asc', 'first')]],
    ['qty.desc.nullsfirst,id.asc', [term('qty', 'desc', 'first'), term('id', 'asc', 'last')]],
    [' qty.desc , id ', [term('qty', 'desc', 'first'), term('id', 'asc', 'last')]],
    ['"my col".desc', [term('my col', 'desc', 'first')]],
    ['ascending', [term('ascending', 'asc', 'last')]],
    [
      'meta->>size.desc',
      [{ field: { column: 'meta', jsonPath: [{ arrow: '->>', key: 'size' }] }, direction: 'desc', nulls: 'first' }],
    ],
    ['', []],
    ['author(name).desc,id', [{ relation: 'author', ...term('name', 'desc', 'first') }, term('id', 'asc', 'last')]],
  ])('%j', (value, terms) => {
    expect(parseOrder(value)).toEqual(terms);
  });

  it.each<[string, number, string]>([
    ['id.ac', 4, 'unexpected "c" expecting "asc", "desc", "nullsfirst" or "nullslast"'],
    ['id.descc', 8, 'unexpected "c" expecting delimiter (.), "," or end of input'],
    ['id.nulsfist', 4, 'unexpected "n" expecting "asc", "desc", "nullsfirst" or "nullslast"'],
    ['id.nullslasttt', 13, 'unexpected "t" expecting "," or end of input'],
    ['id.smth34', 4, 'unexpected "s" expecting "asc", "desc", "nullsfirst" or "nullslast"'],
    ['id.asc.nlsfst', 8, 'unexpected "l" expecting "nullsfirst" or "nullslast"'],
    ['id.asc.nullslasttt', 17, 'unexpected "t" expecting "," or end of input'],
    ['id.asc.smth34', 8, 'unexpected "s" expecting "nullsfirst" or "nullslast"'],
    ['id;drop table x', 3, 'unexpected ";" expecting delimiter (.), "," or end of input'],
    ['id,', 4, 'unexpected end of input expecting field name (* or [a..z0..9_$])'],
    ['clients(name', 13, 'unexpected end of input expecting ")"'],
  ])('refuses %j at column %d', (value, column, details) => {
    expect(errorOf(() => parseOrder(value))).toEqual(parseFailure(`order (${value})`, column, details));
  });
});

describe('parseColumnList', () => {
  it.each<[string, string[]]>([
    ['"title","qty"', ['title', 'qty']],
    ['title,qty', ['title', 'qty']],
    ['id', ['id']],
    [' a , "b c" ', ['a', 'b c']],
    ['"a\\"; drop table x;--"', ['a"; drop table x;--']],
  ])('%j', (value, names) => {
    expect(parseColumnList('columns parameter', value)).toEqual(names);
    expect(parseColumnList('on_conflict parameter', value)).toEqual(names);
  });

  it('refuses what is not a list of names', () => {
    expect(errorOf(() => parseColumnList('on_conflict parameter', 'a;b'))).toEqual(
      parseFailure('on_conflict parameter (a;b)', 2, 'unexpected ";" expecting "," or end of input'),
    );
    expect(errorOf(() => parseColumnList('columns parameter', '"a",')).message).toBe(
      '"failed to parse columns parameter ("a",)" (line 1, column 5)',
    );
  });
});
