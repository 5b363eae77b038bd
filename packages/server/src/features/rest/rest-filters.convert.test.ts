import { describe, expect, it } from 'vitest';
import type { Condition } from '../../db/user-conditions.js';
import { parseListQuery } from '../public-api/public-api.query.js';
import { filtersCondition, orderTerms } from './rest-filters.js';
import { parseRestQuery } from './rest-query.parse.js';

// The one converter of parsed PostgREST filters into the records service's condition tree, as /rest/v1 and
// the public record API use it, without a database.

const where = (query: string) => filtersCondition(parseRestQuery(query));
const order = (query: string) => orderTerms(parseRestQuery(query).order);

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

describe('filtersCondition', () => {
  it.each(conditions)('%s', (query, expected) => {
    expect(where(query)).toEqual(expected);
  });

  it('is what the public record API filters with', () => {
    for (const [query, expected] of conditions) {
      if (!query.includes('select=')) expect(parseListQuery(query).where).toEqual(expected);
    }
  });

  it.each([
    [
      'meta->>color=eq.red',
      { kind: 'compare', column: 'meta', path: [{ arrow: '->>', key: 'color' }], op: 'eq', value: 'red' },
    ],
    [
      'meta->size->0=gt.5',
      {
        kind: 'compare',
        column: 'meta',
        path: [
          { arrow: '->', key: 'size' },
          { arrow: '->', key: 0 },
        ],
        op: 'gt',
        value: '5',
      },
    ],
    [
      'or=(meta->>a.eq.1,tags->0.is.null)',
      {
        kind: 'or',
        conditions: [
          { kind: 'compare', column: 'meta', path: [{ arrow: '->>', key: 'a' }], op: 'eq', value: '1' },
          { kind: 'is', column: 'tags', path: [{ arrow: '->', key: 0 }], value: null },
        ],
      },
    ],
    [
      'meta->>k=like(any).{a*,b*}',
      {
        kind: 'or',
        conditions: [
          { kind: 'pattern', column: 'meta', path: [{ arrow: '->>', key: 'k' }], op: 'like', pattern: 'a%' },
          { kind: 'pattern', column: 'meta', path: [{ arrow: '->>', key: 'k' }], op: 'like', pattern: 'b%' },
        ],
      },
    ],
  ] as Array<[string, Condition]>)('keeps the JSON path of %s', (query, expected) => {
    expect(where(query)).toEqual(expected);
  });
});

describe('orderTerms', () => {
  it('keeps direction, resolved null placement and JSON paths', () => {
    expect(order('order=qty.desc,title,id.asc.nullsfirst,meta->size.desc')).toEqual([
      { column: 'qty', direction: 'desc', nulls: 'first' },
      { column: 'title', direction: 'asc', nulls: 'last' },
      { column: 'id', direction: 'asc', nulls: 'first' },
      { column: 'meta', path: [{ arrow: '->', key: 'size' }], direction: 'desc', nulls: 'first' },
    ]);
  });

  it('sets no path for a plain column', () => {
    expect(order('order=qty')[0]).not.toHaveProperty('path');
  });
});
