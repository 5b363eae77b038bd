import { describe, expect, it } from 'vitest';
import { booleanType as b, parseBooleanText } from './boolean.js';

describe('boolean column type', () => {
  it('declares INTEGER / boolean', () => {
    expect(b.sqlType).toEqual({ sqlite: 'INTEGER', postgres: 'boolean' });
  });

  it.each<[string, unknown, 'json' | 'form', boolean | null]>([
    ['true', true, 'json', true],
    ['false', false, 'json', false],
    ['"true" from a form', 'true', 'form', true],
    ['"False" from a form', 'False', 'form', false],
    ['null', null, 'form', null],
  ])('accepts %s', (_label, input, from, value) => {
    expect(b.parseInput(input, { from })).toEqual({ ok: true, value });
  });

  it.each<[string, unknown, 'json' | 'form']>([
    ['"true" from JSON', 'true', 'json'],
    ['1', 1, 'json'],
    ['0 from a form', 0, 'form'],
    ['"yes" from a form', 'yes', 'form'],
    ['an empty form input', '', 'form'],
    ['an object', {}, 'json'],
  ])('refuses %s', (_label, input, from) => {
    expect(b.parseInput(input, { from })).toEqual({ ok: false, message: 'must be true or false' });
  });

  it('stores 0/1 on SQLite and booleans on PostgreSQL, and always reads booleans', () => {
    expect(b.toStorage(true, 'sqlite')).toBe(1);
    expect(b.toStorage(false, 'sqlite')).toBe(0);
    expect(b.toStorage(true, 'postgres')).toBe(true);
    expect(b.toStorage(false, 'postgres')).toBe(false);
    expect(b.fromStorage(1, 'sqlite')).toBe(true);
    expect(b.fromStorage(0, 'sqlite')).toBe(false);
    expect(b.fromStorage(1n, 'sqlite')).toBe(true);
    expect(b.fromStorage(false, 'postgres')).toBe(false);
    expect(b.fromStorage('t', 'postgres')).toBe(true);
    expect(b.fromStorage(null, 'sqlite')).toBeNull();
  });

  it.each<[string, boolean]>([
    ['true', true],
    ['TRUE', true],
    ['t', true],
    ['tr', true],
    ['yes', true],
    ['y', true],
    ['on', true],
    ['1', true],
    ['false', false],
    ['f', false],
    ['no', false],
    ['off', false],
    ['0', false],
    [' false ', false],
  ])('filter value %j is %s (PostgreSQL boolean input)', (text, value) => {
    expect(b.parseFilterValue(text)).toEqual({ ok: true, value });
  });

  it.each(['', 'o', 'truth', '2', 'null', 'yess'])('filter value %j is 22P02', (text) => {
    expect(b.parseFilterValue(text)).toEqual({
      ok: false,
      message: `invalid input syntax for type boolean: "${text}"`,
    });
  });

  it('parseBooleanText returns null for anything else', () => {
    expect(parseBooleanText('maybe')).toBeNull();
  });

  it.each<[Parameters<typeof b.convertValue>[1], Parameters<typeof b.convertValue>[0], boolean]>([
    ['text', 'true', true],
    ['text', 'no', false],
    ['text', '1', true],
    ['number', 1, true],
    ['number', 0, false],
    ['json', true, true],
    ['json', 'false', false],
  ])('converts %s %j to %s', (from, value, expected) => {
    expect(b.canConvertFrom(from)).toBe('check');
    expect(b.convertValue(value, from)).toEqual({ ok: true, value: expected });
  });

  it.each<[Parameters<typeof b.convertValue>[1], Parameters<typeof b.convertValue>[0]]>([
    ['text', 'maybe'],
    ['number', 2],
    ['number', 0.5],
    ['json', { a: 1 }],
    ['date', '2025-01-01T00:00:00.000Z'],
    ['array', [true]],
  ])('cannot convert %s %j', (from, value) => {
    expect(b.convertValue(value, from).ok).toBe(false);
  });

  it('never converts dates or arrays', () => {
    expect(b.canConvertFrom('date')).toBe('never');
    expect(b.canConvertFrom('array')).toBe('never');
  });
});
