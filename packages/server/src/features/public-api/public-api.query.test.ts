import { describe, expect, it } from 'vitest';
import { ApiError } from '../../http/errors.js';
import { parseListQuery } from './public-api.query.js';

describe('parseListQuery', () => {
  const cases: Array<{ query: string; expected: Partial<ReturnType<typeof parseListQuery>> }> = [
    { query: '', expected: { limit: 100, offset: 0, order: [{ column: 'id', direction: 'asc' }], where: undefined } },
    { query: 'limit=20&offset=40', expected: { limit: 20, offset: 40 } },
    { query: 'limit=1001', expected: { limit: 1000 } },
    { query: 'limit=&offset=', expected: { limit: 100, offset: 0 } },
    { query: 'limit=5&limit=7', expected: { limit: 5 } },
    {
      query: 'orderBy=qty&order=desc',
      expected: {
        order: [
          { column: 'qty', direction: 'desc' },
          { column: 'id', direction: 'desc' },
        ],
      },
    },
    {
      query: 'qty=gt.500&orderBy=id&order=desc&limit=20',
      expected: {
        limit: 20,
        order: [{ column: 'id', direction: 'desc' }],
        where: { kind: 'compare', column: 'qty', op: 'gt', value: '500' },
      },
    },
    {
      query: 'a=eq.1&b=not.is.null',
      expected: {
        where: {
          kind: 'and',
          conditions: [
            { kind: 'compare', column: 'a', op: 'eq', value: '1' },
            { kind: 'not', condition: { kind: 'is', column: 'b', value: null } },
          ],
        },
      },
    },
    { query: 'name=like.a*', expected: { where: { kind: 'pattern', column: 'name', op: 'like', pattern: 'a%' } } },
    { query: 'id=in.(1,2)', expected: { where: { kind: 'in', column: 'id', values: ['1', '2'] } } },
    { query: 'done=is.true', expected: { where: { kind: 'is', column: 'done', value: true } } },
    { query: 'tags=cs.{a}', expected: { where: { kind: 'contains', column: 'tags', op: 'cs', value: '{a}' } } },
    { query: 'v=isdistinct.3', expected: { where: { kind: 'compare', column: 'v', op: 'isdistinct', value: '3' } } },
    {
      query: 'qty=gt(any).{1,5}',
      expected: {
        where: {
          kind: 'or',
          conditions: [
            { kind: 'compare', column: 'qty', op: 'gt', value: '1' },
            { kind: 'compare', column: 'qty', op: 'gt', value: '5' },
          ],
        },
      },
    },
    {
      query: 'meta->>color=eq.red',
      expected: {
        where: { kind: 'compare', column: 'meta', path: [{ arrow: '->>', key: 'color' }], op: 'eq', value: 'red' },
      },
    },
    {
      query: 'not.or=(a.eq.1,b.eq.2)',
      expected: {
        where: {
          kind: 'not',
          condition: {
            kind: 'or',
            conditions: [
              { kind: 'compare', column: 'a', op: 'eq', value: '1' },
              { kind: 'compare', column: 'b', op: 'eq', value: '2' },
            ],
          },
        },
      },
    },
  ];
  it.each(cases)('reads "$query"', ({ query, expected }) => {
    expect(parseListQuery(query)).toMatchObject(expected);
  });

  it.each([
    ['limit=-1', /limit/],
    ['limit=1.5', /limit/],
    ['offset=x', /offset/],
    ['order=up', /order must be asc or desc/],
    ['qty=gt', /failed to parse/],
  ])('refuses "%s" with a 400', (query, message) => {
    let thrown: unknown;
    try {
      parseListQuery(query);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ApiError);
    expect(thrown).toMatchObject({ status: 400, message: expect.stringMatching(message) });
  });
});
