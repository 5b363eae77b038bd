import { describe, expect, it } from 'vitest';
import { textType as t } from './text.js';

describe('text column type', () => {
  it('declares TEXT / text', () => {
    expect(t.sqlType).toEqual({ sqlite: 'TEXT', postgres: 'text' });
    expect(t.pgTypeName).toBe('text');
  });

  it.each<[string, unknown, 'json' | 'form', unknown]>([
    ['a string', 'hello', 'json', 'hello'],
    ['an empty string', '', 'json', ''],
    ['SQL in a string stays data', "'; drop table x;--", 'json', "'; drop table x;--"],
    ['null', null, 'json', null],
    ['undefined', undefined, 'form', null],
    ['a form number as its text', 12.5, 'form', '12.5'],
    ['a form boolean as its text', true, 'form', 'true'],
    ['a form structure as its JSON text', { a: [1] }, 'form', '{"a":[1]}'],
  ])('accepts %s', (_label, input, from, value) => {
    expect(t.parseInput(input, { from })).toEqual({ ok: true, value });
  });

  it.each<[string, unknown, 'json' | 'form']>([
    ['a number from JSON', 5, 'json'],
    ['a boolean from JSON', false, 'json'],
    ['an object from JSON', { a: 1 }, 'json'],
    ['an array from JSON', ['a'], 'json'],
    ['a function', () => 1, 'form'],
  ])('refuses %s', (_label, input, from) => {
    expect(t.parseInput(input, { from })).toEqual({ ok: false, message: 'must be text' });
  });

  it('refuses the NUL character, which PostgreSQL cannot store', () => {
    expect(t.parseInput('a\0b', { from: 'json' })).toEqual({
      ok: false,
      message: 'must not contain the NUL character (\\u0000)',
    });
    expect(t.parseFilterValue('a\0')).toEqual({
      ok: false,
      message: 'invalid byte sequence for encoding "UTF8": 0x00',
      code: '22021',
    });
  });

  it('stores and reads strings unchanged on both engines', () => {
    for (const dialect of ['sqlite', 'postgres'] as const) {
      expect(t.toStorage('a"b', dialect)).toBe('a"b');
      expect(t.fromStorage('a"b', dialect)).toBe('a"b');
      expect(t.toStorage(null, dialect)).toBeNull();
      expect(t.fromStorage(null, dialect)).toBeNull();
    }
  });

  it('takes any filter text', () => {
    expect(t.parseFilterValue('')).toEqual({ ok: true, value: '' });
    expect(t.parseFilterValue('1 or 1=1')).toEqual({ ok: true, value: '1 or 1=1' });
  });

  it.each<[Parameters<typeof t.convertValue>[1], Parameters<typeof t.convertValue>[0], string | null]>([
    ['number', 12, '12'],
    ['number', 0.5, '0.5'],
    ['boolean', false, 'false'],
    ['date', '2025-05-01T00:00:00.000Z', '2025-05-01T00:00:00.000Z'],
    ['json', { a: 1 }, '{"a":1}'],
    ['json', 'plain', 'plain'],
    ['array', [1, 'x'], '[1,"x"]'],
    ['number', null, null],
  ])('converts %s %j to %j', (from, value, expected) => {
    expect(t.canConvertFrom(from)).toBe('always');
    expect(t.convertValue(value, from)).toEqual({ ok: true, value: expected });
  });
});
