import { describe, expect, it } from 'vitest';
import { dateOnlyType as d, parseDateOnly } from './date-only.js';

describe('parseDateOnly', () => {
  it.each<[string, string]>([
    ['2025-05-01', '2025-05-01'],
    [' 2025-05-01 ', '2025-05-01'],
    ['2024-02-29', '2024-02-29'],
    // A date-time keeps its date as written, as PostgreSQL's date input does.
    ['2025-05-01T23:30:00-05:00', '2025-05-01'],
    ['2025-05-01 10:00', '2025-05-01'],
  ])('%j → %s', (text, date) => {
    expect(parseDateOnly(text)).toBe(date);
  });

  it.each(['', 'today', '2025-02-29', '2025-13-01', '2025-5-1', '20250501', '2025-05-01x', '2025-05-01T25:00'])(
    'refuses %j',
    (text) => {
      expect(parseDateOnly(text)).toBeNull();
    },
  );
});

describe('the date_only type', () => {
  it('takes a date string and refuses anything else with the field message', () => {
    expect(d.parseInput('2025-05-01', { from: 'json' })).toEqual({ ok: true, value: '2025-05-01' });
    for (const bad of [20250501, true, {}, '2025-02-30', 'May 1st', '2025-05-01\0'])
      expect(d.parseInput(bad, { from: 'json' })).toMatchObject({
        ok: false,
        message: expect.stringMatching(/YYYY-MM-DD/),
      });
  });

  it('reads node-postgres dates (local midnight) and stored text back as YYYY-MM-DD', () => {
    expect(d.fromStorage(new Date(2025, 0, 31), 'postgres')).toBe('2025-01-31');
    expect(d.fromStorage('2025-01-31', 'sqlite')).toBe('2025-01-31');
    expect(d.toStorage('2025-01-31', 'postgres')).toBe('2025-01-31');
  });

  it('filters with PostgreSQL`s 22P02 text', () => {
    expect(d.parseFilterValue('2025-01-31')).toEqual({ ok: true, value: '2025-01-31' });
    expect(d.parseFilterValue('soon')).toEqual({ ok: false, message: 'invalid input syntax for type date: "soon"' });
  });

  it('converts from a timestamp (its UTC day) and from text that is a date', () => {
    expect(d.convertValue('2025-05-01T23:59:59.000Z', 'date')).toEqual({ ok: true, value: '2025-05-01' });
    expect(d.convertValue('2025-05-01', 'text')).toEqual({ ok: true, value: '2025-05-01' });
    expect(d.convertValue('soon', 'text')).toMatchObject({ ok: false });
    expect(d.canConvertFrom('number')).toBe('never');
  });
});
