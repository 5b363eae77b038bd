import { describe, expect, it } from 'vitest';
import { parseSelect } from './rest-query.select.js';
import { castValue, checkSelect, projectRow, projectRows } from './rest-select.js';

// `select` applied to rows: columns, renames, casts and JSON paths, without a database.

const row = {
  id: 1,
  title: 'Apple',
  qty: 5.5,
  done: true,
  meta: { a: 1, b: { c: [10, 20] }, s: 'x' },
  tags: ['red', 'fruit'],
};
const types: Record<string, 'number' | 'text' | 'boolean' | 'json' | 'array'> = {
  id: 'number',
  title: 'text',
  qty: 'number',
  done: 'boolean',
  meta: 'json',
  tags: 'array',
};
const typeOf = (column: string) => types[column] ?? null;

describe('projectRow', () => {
  it.each([
    ['title,id', { title: 'Apple', id: 1 }],
    ['label:title', { label: 'Apple' }],
    ['t:qty::text,qty::int,done::text,id::boolean', { t: '5.5', qty: 6, done: 'true', id: true }],
    // `->>` on a container gives PostgreSQL's jsonb text, with its spaces.
    ['meta->a,meta->>s,second:meta->b->c->1,meta->b->>c', { a: 1, s: 'x', second: 20, c: '[10, 20]' }],
    ['meta->>b', { b: '{"c": [10, 20]}' }],
    ['meta->b->c->0', { c: 10 }],
    ['first:tags->0,last:tags->-1,tags->>5', { first: 'red', last: 'fruit', tags: null }],
    ['meta->missing->deeper,meta->>a->x', { deeper: null, x: null }],
    ['*,label:title', { ...row, label: 'Apple' }],
  ])('%s', (select, expected) => {
    expect(projectRow(row, parseSelect(select))).toEqual(expected);
  });

  it('returns the same rows for * alone', () => {
    const rows = [row];
    expect(projectRows(rows, parseSelect('*'))).toBe(rows);
  });
});

describe('castValue', () => {
  it.each([
    ['12', 'integer', 12],
    [2.5, 'bigint', 3],
    [true, 'integer', 1],
    ['1.5', 'double precision', 1.5],
    ['yes', 'boolean', true],
    [0, 'boolean', false],
    [{ b: 1, a: [1, 2] }, 'text', '{"a": [1, 2], "b": 1}'],
    [null, 'text', null],
    ['x', 'jsonb', 'x'],
  ] as const)('%j::%s is %j', (value, cast, expected) => {
    expect(castValue(value, cast)).toEqual(expected);
  });

  it.each([
    ['abc', 'integer'],
    ['maybe', 'boolean'],
    [{ a: 1 }, 'numeric'],
  ] as const)('%j::%s is 22P02', (value, cast) => {
    expect(() => castValue(value, cast)).toThrow(expect.objectContaining({ status: 400, code: '22P02' }));
  });
});

describe('checkSelect', () => {
  it('refuses unknown columns (42703) and JSON paths on columns without JSON (42883)', () => {
    expect(() => checkSelect(parseSelect('id,banana'), 'todos', typeOf)).toThrow(
      expect.objectContaining({ code: '42703', message: 'column todos.banana does not exist' }),
    );
    expect(() => checkSelect(parseSelect('title->a'), 'todos', typeOf)).toThrow(
      expect.objectContaining({ code: '42883' }),
    );
    expect(() => checkSelect(parseSelect('meta->>a->b'), 'todos', typeOf)).toThrow(
      expect.objectContaining({ code: '42883', message: 'operator does not exist: text -> unknown' }),
    );
    expect(() => checkSelect(parseSelect('*,meta->a,tags->0,x:id'), 'todos', typeOf)).not.toThrow();
  });
});
