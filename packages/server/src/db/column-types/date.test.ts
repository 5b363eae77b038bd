import { describe, expect, it } from 'vitest';
import { dateType as d, parseIsoDate } from './date.js';

describe('parseIsoDate', () => {
  it.each<[string, string]>([
    ['2025-05-01', '2025-05-01T00:00:00.000Z'],
    ['2025-05-01T10:00:00Z', '2025-05-01T10:00:00.000Z'],
    ['2025-05-01T10:00:00.123456Z', '2025-05-01T10:00:00.123Z'],
    ['2025-05-01T10:00', '2025-05-01T10:00:00.000Z'],
    ['2025-05-01 10:00:00', '2025-05-01T10:00:00.000Z'],
    ['2025-05-01t10:00:00z', '2025-05-01T10:00:00.000Z'],
    ['2025-05-01T12:00:00+02:00', '2025-05-01T10:00:00.000Z'],
    ['2025-05-01T12:00:00+0200', '2025-05-01T10:00:00.000Z'],
    ['2025-05-01T08:30:00-01:30', '2025-05-01T10:00:00.000Z'],
    ['2025-05-01 10:00:00+00', '2025-05-01T10:00:00.000Z'],
    ['2025-05-01T10:00:00.5Z', '2025-05-01T10:00:00.500Z'],
    ['2024-02-29', '2024-02-29T00:00:00.000Z'],
    ['2000-02-29', '2000-02-29T00:00:00.000Z'],
    ['0050-01-01', '0050-01-01T00:00:00.000Z'],
    ['2025-12-31T24:00:00Z', '2026-01-01T00:00:00.000Z'],
    ['2025-01-01T00:30:00+01:00', '2024-12-31T23:30:00.000Z'],
    [' 2025-05-01 ', '2025-05-01T00:00:00.000Z'],
  ])('%j → %s', (text, iso) => {
    expect(parseIsoDate(text)).toBe(iso);
  });

  it.each([
    '',
    'today',
    '2025-13-01',
    '2025-00-10',
    '2025-02-29',
    '1900-02-29',
    '2025-04-31',
    '2025-05-01T25:00:00Z',
    '2025-05-01T24:00:01Z',
    '2025-05-01T10:60:00Z',
    '2025-05-01T10:00:60Z',
    '2025-05-01T10:00:00+24:00',
    '25-05-01',
    '2025/05/01',
    '2025-5-1',
    '1714557600',
    "2025-05-01'; drop table x;--",
  ])('refuses %j', (text) => {
    expect(parseIsoDate(text)).toBeNull();
  });
});

describe('date column type', () => {
  it('declares TEXT / timestamptz', () => {
    expect(d.sqlType).toEqual({ sqlite: 'TEXT', postgres: 'timestamptz' });
    expect(d.pgTypeName).toBe('timestamp with time zone');
  });

  it('accepts ISO dates from JSON and forms, normalised', () => {
    expect(d.parseInput('2025-05-01', { from: 'json' })).toEqual({ ok: true, value: '2025-05-01T00:00:00.000Z' });
    expect(d.parseInput('2025-05-01T12:00:00+02:00', { from: 'form' })).toEqual({
      ok: true,
      value: '2025-05-01T10:00:00.000Z',
    });
    expect(d.parseInput(null, { from: 'json' })).toEqual({ ok: true, value: null });
  });

  it.each<[unknown]>([['yesterday'], [1714557600000], [true], [{}], ['']])('refuses %j', (input) => {
    const result = d.parseInput(input, { from: 'json' });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toMatch(/^must be an ISO 8601 date or date-time/);
  });

  it('stores ISO text and reads ISO strings from both engines', () => {
    expect(d.toStorage('2025-05-01T10:00:00.000Z', 'sqlite')).toBe('2025-05-01T10:00:00.000Z');
    expect(d.toStorage('2025-05-01T10:00:00.000Z', 'postgres')).toBe('2025-05-01T10:00:00.000Z');
    expect(d.fromStorage('2025-05-01T10:00:00.000Z', 'sqlite')).toBe('2025-05-01T10:00:00.000Z');
    expect(d.fromStorage(new Date('2025-05-01T10:00:00Z'), 'postgres')).toBe('2025-05-01T10:00:00.000Z');
    expect(d.fromStorage('2025-05-01 10:00:00+00', 'postgres')).toBe('2025-05-01T10:00:00.000Z');
  });

  it('filter values are ISO dates or 22P02', () => {
    expect(d.parseFilterValue('2025-05-01')).toEqual({ ok: true, value: '2025-05-01T00:00:00.000Z' });
    expect(d.parseFilterValue('soon')).toEqual({
      ok: false,
      message: 'invalid input syntax for type timestamp with time zone: "soon"',
    });
  });

  it('converts text and JSON strings that are dates, nothing else', () => {
    expect(d.canConvertFrom('text')).toBe('check');
    expect(d.canConvertFrom('json')).toBe('check');
    expect(d.canConvertFrom('number')).toBe('never');
    expect(d.canConvertFrom('boolean')).toBe('never');
    expect(d.convertValue('2025-05-01', 'text')).toEqual({ ok: true, value: '2025-05-01T00:00:00.000Z' });
    expect(d.convertValue('not a date', 'text').ok).toBe(false);
    expect(d.convertValue(5, 'json').ok).toBe(false);
    expect(d.convertValue(5, 'number')).toEqual({ ok: false, message: 'cannot be converted from number to date' });
  });
});
