import { describe, expect, it } from 'vitest';
import { jsonType as j } from './json.js';

const deep = (levels: number): unknown => {
  let value: unknown = 1;
  for (let i = 0; i < levels; i++) value = [value];
  return value;
};

describe('json column type', () => {
  it('declares TEXT / jsonb', () => {
    expect(j.sqlType).toEqual({ sqlite: 'TEXT', postgres: 'jsonb' });
  });

  it.each<[string, unknown, 'json' | 'form', unknown]>([
    ['an object', { a: 1, b: [true, null] }, 'json', { a: 1, b: [true, null] }],
    ['an array', [1, 'x'], 'json', [1, 'x']],
    ['a string', 'hello', 'json', 'hello'],
    ['a number', 3.5, 'json', 3.5],
    ['a boolean', false, 'json', false],
    ['null as SQL NULL', null, 'json', null],
    ['form JSON text', '{"a":1}', 'form', { a: 1 }],
    ['form number text', '12', 'form', 12],
    ['form text that is not JSON, kept as a string', 'hello world', 'form', 'hello world'],
    ['form broken JSON, kept as its text', '{"a":', 'form', '{"a":'],
    ['a form structure', { a: 1 }, 'form', { a: 1 }],
    ['100 levels', deep(99), 'json', deep(99)],
  ])('accepts %s', (_label, input, from, value) => {
    expect(j.parseInput(input, { from })).toEqual({ ok: true, value });
  });

  it('refuses what JSON cannot carry', () => {
    expect(j.parseInput(Number.NaN, { from: 'json' }).ok).toBe(false);
    expect(j.parseInput({ a: undefined }, { from: 'json' }).ok).toBe(false);
    expect(j.parseInput(new Date(), { from: 'json' }).ok).toBe(false);
    expect(j.parseInput(deep(101), { from: 'json' })).toEqual({
      ok: false,
      message: 'is nested too deeply (at most 100 levels)',
    });
    expect(j.parseInput(`${'['.repeat(5000)}${']'.repeat(5000)}`, { from: 'form' }).ok).toBe(false);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(j.parseInput(cyclic, { from: 'json' }).ok).toBe(false);
  });

  it('refuses the NUL character in strings and keys, which jsonb cannot hold', () => {
    expect(j.parseInput({ a: 'x\0' }, { from: 'json' }).ok).toBe(false);
    expect(j.parseInput({ 'k\0': 1 }, { from: 'json' }).ok).toBe(false);
    expect(j.parseInput('raw\0', { from: 'form' }).ok).toBe(false);
    expect(j.parseFilterValue('"\\u0000"')).toEqual({
      ok: false,
      message: 'unsupported Unicode escape sequence',
      details: '\\u0000 cannot be converted to text.',
      code: '22P05',
    });
  });

  it('stores JSON text and reads values back', () => {
    expect(j.toStorage({ a: [1] }, 'sqlite')).toBe('{"a":[1]}');
    expect(j.toStorage('x', 'postgres')).toBe('"x"');
    expect(j.fromStorage('{"a":[1]}', 'sqlite')).toEqual({ a: [1] });
    expect(j.fromStorage('"x"', 'sqlite')).toBe('x');
    // pg has parsed jsonb already: a JSON string arrives as a JS string and must stay one.
    expect(j.fromStorage('{"a":1}', 'postgres')).toBe('{"a":1}');
    expect(j.fromStorage({ a: 1 }, 'postgres')).toEqual({ a: 1 });
  });

  it.each<[string, unknown]>([
    ['{"a":1}', { a: 1 }],
    ['[1,2]', [1, 2]],
    ['"x"', 'x'],
    ['5', 5],
    ['null', null],
  ])('filter value %j', (text, value) => {
    expect(j.parseFilterValue(text)).toEqual({ ok: true, value });
  });

  it.each<[string, string]>([
    ['abc', 'Token "abc" is invalid.'],
    ['{a:1}', 'Token "{" is invalid.'],
    ['', 'The input string ended unexpectedly.'],
  ])('filter value %j is 22P02 with details', (text, details) => {
    expect(j.parseFilterValue(text)).toEqual({ ok: false, message: 'invalid input syntax for type json', details });
  });

  it('takes every type, parsing text that looks like a structure', () => {
    for (const from of ['text', 'number', 'boolean', 'date', 'array'] as const)
      expect(j.canConvertFrom(from)).toBe('always');
    expect(j.convertValue('{"a":1}', 'text')).toEqual({ ok: true, value: { a: 1 } });
    expect(j.convertValue('[1]', 'text')).toEqual({ ok: true, value: [1] });
    expect(j.convertValue('{oops', 'text')).toEqual({ ok: true, value: '{oops' });
    expect(j.convertValue('12', 'text')).toEqual({ ok: true, value: '12' });
    expect(j.convertValue(12, 'number')).toEqual({ ok: true, value: 12 });
    expect(j.convertValue(true, 'boolean')).toEqual({ ok: true, value: true });
    expect(j.convertValue('2025-05-01T00:00:00.000Z', 'date')).toEqual({ ok: true, value: '2025-05-01T00:00:00.000Z' });
    expect(j.convertValue([1], 'array')).toEqual({ ok: true, value: [1] });
  });
});
