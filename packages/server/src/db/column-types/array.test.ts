import { describe, expect, it } from 'vitest';
import { arrayType as a } from './array.js';
import { parseArrayLiteral } from './array-literal.js';

describe('parseArrayLiteral', () => {
  it.each<[string, Array<[string, boolean]> | null]>([
    ['{}', []],
    ['{ }', []],
    [
      '{a,b}',
      [
        ['a', false],
        ['b', false],
      ],
    ],
    [
      '{ a , b }',
      [
        ['a', false],
        ['b', false],
      ],
    ],
    [
      '{"a,b",c}',
      [
        ['a,b', true],
        ['c', false],
      ],
    ],
    [
      '{"say \\"hi\\"","back\\\\slash"}',
      [
        ['say "hi"', true],
        ['back\\slash', true],
      ],
    ],
    ['{"{}"}', [['{}', true]]],
    ['{""}', [['', true]]],
    [
      '{1,2.5,NULL}',
      [
        ['1', false],
        ['2.5', false],
        ['NULL', false],
      ],
    ],
    ['{a\\,b}', [['a,b', false]]],
    ['{a,,b}', null],
    ['{a,}', null],
    ['{{1,2},{3,4}}', null],
    ['{"unterminated}', null],
    ['{"a"b}', null],
    ['a,b', null],
    ['[1,2]', null],
    ['{', null],
  ])('%j', (text, expected) => {
    const parsed = parseArrayLiteral(text);
    expect(parsed === null ? null : parsed.map((e) => [e.text, e.quoted])).toEqual(expected);
  });
});

describe('array column type', () => {
  it('declares TEXT / jsonb', () => {
    expect(a.sqlType).toEqual({ sqlite: 'TEXT', postgres: 'jsonb' });
  });

  it.each<[string, unknown, 'json' | 'form', unknown]>([
    ['an array', [1, 'a', { b: null }], 'json', [1, 'a', { b: null }]],
    ['an empty array', [], 'json', []],
    ['form JSON array text', '["a","b"]', 'form', ['a', 'b']],
    ['null', null, 'form', null],
  ])('accepts %s', (_label, input, from, value) => {
    expect(a.parseInput(input, { from })).toEqual({ ok: true, value });
  });

  it.each<[string, unknown, 'json' | 'form']>([
    ['an object', { a: 1 }, 'json'],
    ['a string from JSON', '["a"]', 'json'],
    ['form text that is not an array', 'a,b', 'form'],
    ['form JSON that is not an array', '{"a":1}', 'form'],
    ['a number', 1, 'json'],
  ])('refuses %s', (_label, input, from) => {
    expect(a.parseInput(input, { from })).toEqual({ ok: false, message: 'must be a JSON array' });
  });

  it('stores JSON text and reads arrays back', () => {
    expect(a.toStorage(['a', 1], 'sqlite')).toBe('["a",1]');
    expect(a.toStorage(['a', 1], 'postgres')).toBe('["a",1]');
    expect(a.fromStorage('["a",1]', 'sqlite')).toEqual(['a', 1]);
    expect(a.fromStorage(['a', 1], 'postgres')).toEqual(['a', 1]);
  });

  it.each<[string, unknown]>([
    ['{a,b}', ['a', 'b']],
    ['{1,2}', [1, 2]],
    ['{"1",true,NULL}', ['1', true, null]],
    ['{}', []],
    ['["a",1]', ['a', 1]],
  ])('filter value %j', (text, value) => {
    expect(a.parseFilterValue(text)).toEqual({ ok: true, value });
  });

  it('filter values that are not arrays are 22P02', () => {
    expect(a.parseFilterValue('abc')).toEqual({
      ok: false,
      message: 'invalid input syntax for type json',
      details: 'Token "abc" is invalid.',
    });
    expect(a.parseFilterValue('{"a":1}').ok).toBe(false);
    expect(a.parseFilterValue('5').ok).toBe(false);
    expect(a.parseFilterValue('{"a\0"}')).toMatchObject({ ok: false, code: '22P05' });
  });

  it('converts JSON arrays and array text only', () => {
    expect(a.canConvertFrom('json')).toBe('check');
    expect(a.canConvertFrom('text')).toBe('check');
    expect(a.canConvertFrom('number')).toBe('never');
    expect(a.convertValue([1], 'json')).toEqual({ ok: true, value: [1] });
    expect(a.convertValue('[1]', 'text')).toEqual({ ok: true, value: [1] });
    expect(a.convertValue({ a: 1 }, 'json').ok).toBe(false);
    expect(a.convertValue('x', 'json').ok).toBe(false);
    expect(a.convertValue('a,b', 'text').ok).toBe(false);
  });
});
