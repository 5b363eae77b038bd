import { describe, expect, it } from 'vitest';
import { errorOf, parseFailure } from '../../testing/rest-query.fixtures.js';
import { parseFilter, parseFilterKey, parseLogicTree } from './rest-query.filters.js';
import type { LogicTree, Operation } from './rest-query.types.js';

describe('parseFilter: every operator', () => {
  it.each<[string, Operation, boolean?]>([
    ['eq.5', { kind: 'compare', op: 'eq', value: '5' }],
    ['neq.5', { kind: 'compare', op: 'neq', value: '5' }],
    ['gt.5', { kind: 'compare', op: 'gt', value: '5' }],
    ['gte.5', { kind: 'compare', op: 'gte', value: '5' }],
    ['lt.5', { kind: 'compare', op: 'lt', value: '5' }],
    ['lte.5', { kind: 'compare', op: 'lte', value: '5' }],
    ['eq.', { kind: 'compare', op: 'eq', value: '' }],
    ['eq.1.5.2', { kind: 'compare', op: 'eq', value: '1.5.2' }],
    ['eq.a,b)c"d', { kind: 'compare', op: 'eq', value: 'a,b)c"d' }],
    ['eq."quoted"', { kind: 'compare', op: 'eq', value: '"quoted"' }],
    ['like.*ada*', { kind: 'pattern', op: 'like', value: '%ada%' }],
    ['ilike.%a_b%', { kind: 'pattern', op: 'ilike', value: '%a_b%' }],
    ['match.^A.*z$', { kind: 'pattern', op: 'match', value: '^A.*z$' }],
    ['imatch.a*', { kind: 'pattern', op: 'imatch', value: 'a*' }],
    ['is.null', { kind: 'is', value: 'null' }],
    ['is.NULL', { kind: 'is', value: 'null' }],
    ['is.not_null', { kind: 'is', value: 'not_null' }],
    ['is.True', { kind: 'is', value: 'true' }],
    ['is.false', { kind: 'is', value: 'false' }],
    ['is.unknown', { kind: 'is', value: 'unknown' }],
    ['in.(1,2,3)', { kind: 'in', values: ['1', '2', '3'] }],
    ['in.(1,2,"a,b")', { kind: 'in', values: ['1', '2', 'a,b'] }],
    ['in.("a\\"b","c\\\\d","(x)")', { kind: 'in', values: ['a"b', 'c\\d', '(x)'] }],
    ['in.("a"b)', { kind: 'in', values: ['"a"b'] }],
    ['in.( 1, 2 )', { kind: 'in', values: ['1', ' 2 '] }],
    ['in.()', { kind: 'in', values: [] }],
    ['in.("")', { kind: 'in', values: [''] }],
    ['in.(a b,c.d)', { kind: 'in', values: ['a b', 'c.d'] }],
    ['isdistinct.true', { kind: 'isdistinct', value: 'true' }],
    ['cs.{"a":1}', { kind: 'contains', op: 'cs', value: '{"a":1}' }],
    ['cs.{a,b}', { kind: 'contains', op: 'cs', value: '{a,b}' }],
    ['cd.[1,2]', { kind: 'contains', op: 'cd', value: '[1,2]' }],
    ['ov.{1,2}', { kind: 'contains', op: 'ov', value: '{1,2}' }],
    ['like(any).{a*,b*}', { kind: 'quantified', op: 'like', quantifier: 'any', values: ['a%', 'b%'] }],
    ['ilike(all).{"%a,b%",c}', { kind: 'quantified', op: 'ilike', quantifier: 'all', values: ['%a,b%', 'c'] }],
    ['eq(any).{1,2}', { kind: 'quantified', op: 'eq', quantifier: 'any', values: ['1', '2'] }],
    ['gt(all).{1}', { kind: 'quantified', op: 'gt', quantifier: 'all', values: ['1'] }],
    ['gte(any).{}', { kind: 'quantified', op: 'gte', quantifier: 'any', values: [] }],
    ['lt(any).{3}', { kind: 'quantified', op: 'lt', quantifier: 'any', values: ['3'] }],
    ['lte(all).{3}', { kind: 'quantified', op: 'lte', quantifier: 'all', values: ['3'] }],
    ['match(any).{^a,^b}', { kind: 'quantified', op: 'match', quantifier: 'any', values: ['^a', '^b'] }],
    ['imatch(all).{x}', { kind: 'quantified', op: 'imatch', quantifier: 'all', values: ['x'] }],
    ['not.eq.5', { kind: 'compare', op: 'eq', value: '5' }, true],
    ['not.is.null', { kind: 'is', value: 'null' }, true],
    ['not.in.(1,2)', { kind: 'in', values: ['1', '2'] }, true],
    ['not.like(all).{a*}', { kind: 'quantified', op: 'like', quantifier: 'all', values: ['a%'] }, true],
    ['not.cs.{a}', { kind: 'contains', op: 'cs', value: '{a}' }, true],
    ['fts.cat', { kind: 'search', op: 'fts', config: null, value: 'cat' }],
    ['fts(english).cat & rat', { kind: 'search', op: 'fts', config: 'english', value: 'cat & rat' }],
    ['plfts.fat rats', { kind: 'search', op: 'plfts', config: null, value: 'fat rats' }],
    ['phfts(simple).a.b', { kind: 'search', op: 'phfts', config: 'simple', value: 'a.b' }],
    ['wfts(english)."fat rat" -dog', { kind: 'search', op: 'wfts', config: 'english', value: '"fat rat" -dog' }],
    ['not.wfts.cat', { kind: 'search', op: 'wfts', config: null, value: 'cat' }, true],
  ])('qty=%s', (value, operation, negated = false) => {
    expect(parseFilter('qty', value)).toEqual({ field: { column: 'qty', jsonPath: [] }, negated, operation });
  });

  it('keeps SQL in values as plain data', () => {
    for (const value of ["'; drop table t_1;--", '1) or (1=1', '$1', '\0', '%00']) {
      expect(parseFilter('title', `eq.${value}`).operation).toEqual({ kind: 'compare', op: 'eq', value });
    }
  });
});

describe('parseFilter: keys', () => {
  it.each<[string, { column: string; jsonPath: Array<{ arrow: string; key: string | number }> }]>([
    ['qty', { column: 'qty', jsonPath: [] }],
    ['meta->>color', { column: 'meta', jsonPath: [{ arrow: '->>', key: 'color' }] }],
    [
      'meta->a->>b',
      {
        column: 'meta',
        jsonPath: [
          { arrow: '->', key: 'a' },
          { arrow: '->>', key: 'b' },
        ],
      },
    ],
    ['tags->0', { column: 'tags', jsonPath: [{ arrow: '->', key: 0 }] }],
    ['tags->>-1', { column: 'tags', jsonPath: [{ arrow: '->>', key: -1 }] }],
    ['meta->"a.b"', { column: 'meta', jsonPath: [{ arrow: '->', key: 'a.b' }] }],
    ['my-col', { column: 'my-col', jsonPath: [] }],
    ['"my col"', { column: 'my col', jsonPath: [] }],
    ['"a\\"; drop table x;--"', { column: 'a"; drop table x;--', jsonPath: [] }],
    ['naïve', { column: 'naïve', jsonPath: [] }],
  ])('%s', (key, fieldRef) => {
    expect(parseFilterKey(key)).toEqual(fieldRef);
  });

  it.each<[string, string, string]>([
    [
      '',
      '"failed to parse tree path ()" (line 1, column 1)',
      'unexpected end of input expecting field name (* or [a..z0..9_$])',
    ],
    [
      'author.name',
      '"failed to parse tree path (author.name)" (line 1, column 7)',
      'Filters on embedded resources are not supported',
    ],
    ['a;b', '"failed to parse tree path (a;b)" (line 1, column 2)', 'unexpected ";" expecting end of input'],
  ])('refuses the key %j', (key, message, details) => {
    expect(errorOf(() => parseFilter(key, 'eq.1'))).toEqual({
      status: 400,
      code: 'PGRST100',
      message,
      details,
      hint: null,
    });
  });
});

describe('parseFilter: errors', () => {
  it.each<[string, number, string]>([
    ['xx.1', 1, 'unexpected "x" expecting "not" or operator (eq, gt, ...)'],
    ['noop.0', 1, 'unexpected "o" expecting "not" or operator (eq, gt, ...)'],
    ['val', 1, 'unexpected "v" expecting "not" or operator (eq, gt, ...)'],
    ['', 1, 'unexpected end of input expecting "not" or operator (eq, gt, ...)'],
    ['EQ.1', 1, 'unexpected "E" expecting "not" or operator (eq, gt, ...)'],
    ['not.xx.1', 5, 'unexpected "x" expecting operator (eq, gt, ...)'],
    ['not.not.eq.1', 5, 'unexpected "n" expecting operator (eq, gt, ...)'],
    ['eq5', 3, 'unexpected "5" expecting "(" or delimiter (.)'],
    ['neq', 4, 'unexpected end of input expecting delimiter (.)'],
    ['eq(some).{1}', 3, 'unexpected "s" expecting "(any)" or "(all)"'],
    ['is.maybe', 4, 'unexpected "m" expecting isVal: (null, not_null, true, false, unknown)'],
    ['is.nullx', 8, 'unexpected "x" expecting end of input'],
    ['in.1,2', 4, 'unexpected "1" expecting "("'],
    ['in.(1,2', 8, 'unexpected end of input expecting "," or ")"'],
    ['in.(1,2)x', 9, 'unexpected "x" expecting end of input'],
    ['fts(en-gb).cat', 4, 'unexpected "(" expecting "(" or delimiter (.)'],
    ['plfts', 6, 'unexpected end of input expecting "(" or delimiter (.)'],
    ['adj.[1,2]', 1, 'Range operators (adj) are not supported'],
  ])('qty=%s', (value, column, details) => {
    expect(errorOf(() => parseFilter('qty', value))).toEqual(parseFailure(`filter (${value})`, column, details));
  });

  it('answers 22P02 for a quantified value that is not an array literal', () => {
    expect(errorOf(() => parseFilter('title', 'like(any).abc'))).toEqual({
      status: 400,
      code: '22P02',
      message: 'malformed array literal: "abc"',
      details: 'Array value must start with "{" or dimension information.',
      hint: null,
    });
  });
});

const leaf = (column: string, operation: Operation, negated = false): LogicTree => ({
  kind: 'filter',
  filter: { field: { column, jsonPath: [] }, negated, operation },
});

describe('parseLogicTree', () => {
  it.each<[Parameters<typeof parseLogicTree>[0], string, LogicTree]>([
    [
      'or',
      '(a.eq.1,b.eq.2)',
      {
        kind: 'or',
        negated: false,
        children: [
          leaf('a', { kind: 'compare', op: 'eq', value: '1' }),
          leaf('b', { kind: 'compare', op: 'eq', value: '2' }),
        ],
      },
    ],
    [
      'and',
      '(a.gte.1)',
      { kind: 'and', negated: false, children: [leaf('a', { kind: 'compare', op: 'gte', value: '1' })] },
    ],
    [
      'not.or',
      '(a.is.null,b.not.is.null)',
      {
        kind: 'or',
        negated: true,
        children: [leaf('a', { kind: 'is', value: 'null' }), leaf('b', { kind: 'is', value: 'null' }, true)],
      },
    ],
    // As in PostgREST, spaces around names are skipped but an unquoted value keeps its own.
    [
      'not.and',
      '( a.eq.1 , b.eq.2 )',
      {
        kind: 'and',
        negated: true,
        children: [
          leaf('a', { kind: 'compare', op: 'eq', value: '1 ' }),
          leaf('b', { kind: 'compare', op: 'eq', value: '2 ' }),
        ],
      },
    ],
    [
      'or',
      '(a.eq."x,y",b.eq."p)q")',
      {
        kind: 'or',
        negated: false,
        children: [
          leaf('a', { kind: 'compare', op: 'eq', value: 'x,y' }),
          leaf('b', { kind: 'compare', op: 'eq', value: 'p)q' }),
        ],
      },
    ],
    [
      'or',
      '(a.eq."say \\"hi\\"")',
      { kind: 'or', negated: false, children: [leaf('a', { kind: 'compare', op: 'eq', value: 'say "hi"' })] },
    ],
    [
      'or',
      '(a.eq."x"y)',
      { kind: 'or', negated: false, children: [leaf('a', { kind: 'compare', op: 'eq', value: '"x"y' })] },
    ],
    [
      'or',
      '(tags.cs.{a,b},id.in.(1,2))',
      {
        kind: 'or',
        negated: false,
        children: [
          leaf('tags', { kind: 'contains', op: 'cs', value: '{a,b}' }),
          leaf('id', { kind: 'in', values: ['1', '2'] }),
        ],
      },
    ],
    [
      'or',
      '(t.like(any).{a*,b*},t.eq.)',
      {
        kind: 'or',
        negated: false,
        children: [
          leaf('t', { kind: 'quantified', op: 'like', quantifier: 'any', values: ['a%', 'b%'] }),
          leaf('t', { kind: 'compare', op: 'eq', value: '' }),
        ],
      },
    ],
    [
      'or',
      '(a.eq.1,and(b.eq.2,or(c.eq.3,not.and(d.eq.4,e.eq.5))))',
      {
        kind: 'or',
        negated: false,
        children: [
          leaf('a', { kind: 'compare', op: 'eq', value: '1' }),
          {
            kind: 'and',
            negated: false,
            children: [
              leaf('b', { kind: 'compare', op: 'eq', value: '2' }),
              {
                kind: 'or',
                negated: false,
                children: [
                  leaf('c', { kind: 'compare', op: 'eq', value: '3' }),
                  {
                    kind: 'and',
                    negated: true,
                    children: [
                      leaf('d', { kind: 'compare', op: 'eq', value: '4' }),
                      leaf('e', { kind: 'compare', op: 'eq', value: '5' }),
                    ],
                  },
                ],
              },
            ],
          },
        ],
      },
    ],
    [
      'or',
      '(meta->>kind.eq.x,not.eq.1)',
      {
        kind: 'or',
        negated: false,
        children: [
          {
            kind: 'filter',
            filter: {
              field: { column: 'meta', jsonPath: [{ arrow: '->>', key: 'kind' }] },
              negated: false,
              operation: { kind: 'compare', op: 'eq', value: 'x' },
            },
          },
          leaf('not', { kind: 'compare', op: 'eq', value: '1' }),
        ],
      },
    ],
    [
      'or',
      '(and.eq.1)',
      { kind: 'or', negated: false, children: [leaf('and', { kind: 'compare', op: 'eq', value: '1' })] },
    ],
  ])('%s=%s', (key, value, tree) => {
    expect(parseLogicTree(key, value)).toEqual(tree);
  });

  it.each<[Parameters<typeof parseLogicTree>[0], string, number, string]>([
    [
      'or',
      '()',
      4,
      'unexpected ")" expecting field name (* or [a..z0..9_$]), negation operator (not) or logic operator (and, or)',
    ],
    ['or', '(id.in.1,2,id.eq.3)', 10, 'unexpected "1" expecting "("'],
    ['or', ')(', 3, 'unexpected ")" expecting "("'],
    ['and', '(ord(id.eq.1,id.eq.1),id.eq.2)', 7, 'unexpected "d" expecting "("'],
    ['or', '(id.eq.1,not.xor(id.eq.2,id.eq.3))', 16, 'unexpected "x" expecting logic operator (and, or)'],
    ['or', 'id.eq.1', 3, 'unexpected "i" expecting "("'],
    ['or', '(a.eq.1', 10, 'unexpected end of input expecting ")"'],
    ['or', '(a.eq.1))', 11, 'unexpected ")" expecting end of input'],
    ['or', '', 3, 'unexpected end of input expecting "("'],
    ['not.or', '(a.xx.1)', 10, 'unexpected "x" expecting "not" or operator (eq, gt, ...)'],
  ])('%s=%s fails at column %d', (key, value, column, details) => {
    expect(errorOf(() => parseLogicTree(key, value))).toEqual(parseFailure(`logic tree (${value})`, column, details));
  });

  it('refuses hostile nesting without exhausting the stack', () => {
    const deep = `(${'and('.repeat(5000)}a.eq.1${')'.repeat(5000)})`;
    const error = errorOf(() => parseLogicTree('or', deep));
    expect(error.code).toBe('PGRST100');
    expect(error.details).toBe('Logic trees can be nested at most 32 levels deep');
    const fine = `(${'and('.repeat(30)}a.eq.1${')'.repeat(30)})`;
    expect(parseLogicTree('or', fine).kind).toBe('or');
  });

  it('keeps SQL in tree values and names as data', () => {
    const tree = parseLogicTree('or', '("a\\"b".eq.1;drop table x,title.eq."\'); drop table t_1;--")');
    expect(tree).toEqual({
      kind: 'or',
      negated: false,
      children: [
        leaf('a"b', { kind: 'compare', op: 'eq', value: '1;drop table x' }),
        leaf('title', { kind: 'compare', op: 'eq', value: "'); drop table t_1;--" }),
      ],
    });
  });
});
