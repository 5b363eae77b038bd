import { describe, expect, it } from 'vitest';
import type { Condition } from '../../db/user-tables.js';
import { conditionOf, orderOf } from './rest-conditions.js';
import { parseRestQuery } from './rest-query.parse.js';
import { checkSingular, rangeHeader, readStatus } from './rest-response.js';

// The mapping of parsed requests onto the records service's condition tree, and the response arithmetic
// (protocol §3.5), without a database.

const where = (query: string) => conditionOf(parseRestQuery(query));

const conditions: Array<[string, Condition | undefined]> = [
  ['', undefined],
  ['select=id&order=id', undefined],
  ['qty=gt.5', { kind: 'compare', column: 'qty', op: 'gt', value: '5' }],
  ['done=isdistinct.true', { kind: 'compare', column: 'done', op: 'isdistinct', value: 'true' }],
  ['title=like.a*', { kind: 'pattern', column: 'title', op: 'like', pattern: 'a%' }],
  ['title=imatch.^a', { kind: 'pattern', column: 'title', op: 'imatch', pattern: '^a' }],
  ['id=in.(1,"2,3")', { kind: 'in', column: 'id', values: ['1', '2,3'] }],
  ['qty=is.null', { kind: 'is', column: 'qty', value: null }],
  ['done=is.unknown', { kind: 'is', column: 'done', value: null }],
  ['qty=is.not_null', { kind: 'is', column: 'qty', value: 'not_null' }],
  ['done=is.TRUE', { kind: 'is', column: 'done', value: true }],
  ['done=is.false', { kind: 'is', column: 'done', value: false }],
  ['meta=cs.{"a":1}', { kind: 'contains', column: 'meta', op: 'cs', value: '{"a":1}' }],
  ['tags=ov.{a,b}', { kind: 'contains', column: 'tags', op: 'ov', value: '{a,b}' }],
  ['qty=not.eq.5', { kind: 'not', condition: { kind: 'compare', column: 'qty', op: 'eq', value: '5' } }],
  [
    'title=like(any).{a*,b*}',
    {
      kind: 'or',
      conditions: [
        { kind: 'pattern', column: 'title', op: 'like', pattern: 'a%' },
        { kind: 'pattern', column: 'title', op: 'like', pattern: 'b%' },
      ],
    },
  ],
  [
    'qty=gt(all).{1,2}',
    {
      kind: 'and',
      conditions: [
        { kind: 'compare', column: 'qty', op: 'gt', value: '1' },
        { kind: 'compare', column: 'qty', op: 'gt', value: '2' },
      ],
    },
  ],
  [
    'qty=gt.1&or=(a.eq.1,not.and(b.is.null,c.lt.2))',
    {
      kind: 'and',
      conditions: [
        { kind: 'compare', column: 'qty', op: 'gt', value: '1' },
        {
          kind: 'or',
          conditions: [
            { kind: 'compare', column: 'a', op: 'eq', value: '1' },
            {
              kind: 'not',
              condition: {
                kind: 'and',
                conditions: [
                  { kind: 'is', column: 'b', value: null },
                  { kind: 'compare', column: 'c', op: 'lt', value: '2' },
                ],
              },
            },
          ],
        },
      ],
    },
  ],
  [
    'not.or=(a.eq.1)',
    { kind: 'not', condition: { kind: 'or', conditions: [{ kind: 'compare', column: 'a', op: 'eq', value: '1' }] } },
  ],
];

describe('conditionOf', () => {
  it.each(conditions)('%s', (query, expected) => {
    expect(where(query)).toEqual(expected);
  });

  it('refuses JSON paths in filters and order until the records service takes them', () => {
    expect(() => where('meta->>a=eq.1')).toThrow(expect.objectContaining({ status: 400, code: '0A000' }));
    expect(() => orderOf(parseRestQuery('order=meta->a.desc'))).toThrow(expect.objectContaining({ code: '0A000' }));
  });
});

describe('orderOf', () => {
  it('keeps direction and resolved null placement', () => {
    expect(orderOf(parseRestQuery('order=qty.desc,title,id.asc.nullsfirst'))).toEqual([
      { column: 'qty', direction: 'desc', nulls: 'first' },
      { column: 'title', direction: 'asc', nulls: 'last' },
      { column: 'id', direction: 'asc', nulls: 'first' },
    ]);
  });
});

describe('response arithmetic', () => {
  it.each([
    [0, 10, null, '0-9/*'],
    [0, 10, 57, '0-9/57'],
    [20, 5, 25, '20-24/25'],
    [0, 0, 0, '*/0'],
    [5, 0, null, '*/*'],
  ])('Content-Range of offset %i, %i rows, total %s is %s', (offset, rows, total, expected) => {
    expect(rangeHeader(offset, rows, total)).toBe(expected);
  });

  it.each([
    [0, 10, null, 200],
    [0, 10, 57, 206],
    [0, 57, 57, 200],
    [0, 0, 0, 200],
    [25, 0, 25, 206],
  ])('offset %i with %i rows of %s: %i', (offset, rows, total, status) => {
    expect(readStatus(offset, rows, total)).toBe(status);
  });

  it('answers 416 PGRST103 past the total and 406 PGRST116 for a non-single result', () => {
    expect(() => readStatus(30, 0, 25)).toThrow(
      expect.objectContaining({
        status: 416,
        code: 'PGRST103',
        details: expect.objectContaining({ details: 'An offset of 30 was requested, but there are only 25 rows.' }),
      }),
    );
    expect(() => checkSingular('object', 2)).toThrow(expect.objectContaining({ status: 406, code: 'PGRST116' }));
    expect(() => checkSingular('json', 2)).not.toThrow();
  });
});
