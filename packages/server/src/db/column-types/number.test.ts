import { describe, expect, it } from 'vitest';
import { numberType as n, parseNumericText } from './number.js';

describe('number column type', () => {
  it('declares REAL / double precision', () => {
    expect(n.sqlType).toEqual({ sqlite: 'REAL', postgres: 'double precision' });
  });

  it.each<[string, unknown, 'json' | 'form', number | null]>([
    ['an integer', 42, 'json', 42],
    ['a negative fraction', -0.25, 'json', -0.25],
    ['zero', 0, 'form', 0],
    ['a numeric string from a form', '12.5', 'form', 12.5],
    ['a padded numeric string from a form', ' 7 ', 'form', 7],
    ['an exponent from a form', '1e3', 'form', 1000],
    ['null', null, 'json', null],
  ])('accepts %s', (_label, input, from, value) => {
    expect(n.parseInput(input, { from })).toEqual({ ok: true, value });
  });

  it.each<[string, unknown, 'json' | 'form', string]>([
    ['a numeric string from JSON', '12', 'json', 'must be a number'],
    ['text from a form', 'abc', 'form', 'must be a number'],
    ['an empty form input', '', 'form', 'must be a number'],
    ['Infinity', Number.POSITIVE_INFINITY, 'json', 'must be a finite number'],
    ['NaN', Number.NaN, 'form', 'must be a finite number'],
    ['a boolean', true, 'json', 'must be a number'],
    ['hex text', '0x10', 'form', 'must be a number'],
    ['an overflowing string', '1e400', 'form', 'must be a number'],
  ])('refuses %s', (_label, input, from, message) => {
    expect(n.parseInput(input, { from })).toEqual({ ok: false, message });
  });

  it('reads numbers back, including bigints and numeric strings from drivers', () => {
    expect(n.toStorage(1.5, 'sqlite')).toBe(1.5);
    expect(n.toStorage(1.5, 'postgres')).toBe(1.5);
    expect(n.fromStorage(3, 'sqlite')).toBe(3);
    expect(n.fromStorage(3n, 'sqlite')).toBe(3);
    expect(n.fromStorage('2.5', 'postgres')).toBe(2.5);
  });

  it.each<[string, number]>([
    ['5', 5],
    ['-5.5', -5.5],
    ['.5', 0.5],
    ['5.', 5],
    ['+1E2', 100],
    [' 10 ', 10],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['-infinity', Number.NEGATIVE_INFINITY],
  ])('filter value %j is %d', (text, value) => {
    expect(n.parseFilterValue(text)).toEqual({ ok: true, value });
  });

  it.each(['abc', '', '1,5', 'NaN', '5 5', '1e400', '1; drop table x'])('filter value %j is 22P02', (text) => {
    expect(n.parseFilterValue(text)).toEqual({
      ok: false,
      message: `invalid input syntax for type double precision: "${text}"`,
    });
  });

  it('parseNumericText reads decimals only', () => {
    expect(parseNumericText('0012')).toBe(12);
    expect(parseNumericText('1_000')).toBeNull();
    expect(parseNumericText('Infinity')).toBeNull();
  });

  it.each<[Parameters<typeof n.canConvertFrom>[0], 'always' | 'check' | 'never']>([
    ['text', 'check'],
    ['boolean', 'always'],
    ['json', 'check'],
    ['date', 'never'],
    ['array', 'never'],
    ['number', 'always'],
  ])('conversion from %s is %s', (from, conversion) => {
    expect(n.canConvertFrom(from)).toBe(conversion);
  });

  it.each<[Parameters<typeof n.convertValue>[1], Parameters<typeof n.convertValue>[0], number]>([
    ['text', '42', 42],
    ['text', ' -1.5 ', -1.5],
    ['boolean', true, 1],
    ['boolean', false, 0],
    ['json', 3, 3],
    ['json', '3', 3],
  ])('converts %s %j to %d', (from, value, expected) => {
    expect(n.convertValue(value, from)).toEqual({ ok: true, value: expected });
  });

  it.each<[Parameters<typeof n.convertValue>[1], Parameters<typeof n.convertValue>[0]]>([
    ['text', 'abc'],
    ['text', ''],
    ['json', { a: 1 }],
    ['json', true],
    ['date', '2025-01-01T00:00:00.000Z'],
    ['array', [1]],
  ])('cannot convert %s %j', (from, value) => {
    expect(n.convertValue(value, from).ok).toBe(false);
  });
});
