import { COLUMN_TYPES, type ColumnType } from '@basalt/shared';
import { describe, expect, it } from 'vitest';
import type { CellValue } from './column-type.js';
import { columnTypeOf, columnTypes, isColumnType } from './registry.js';

describe('column type registry', () => {
  it('has one definition per shared column type, under its own name', () => {
    expect(Object.keys(columnTypes).sort()).toEqual([...COLUMN_TYPES].sort());
    for (const type of COLUMN_TYPES) expect(columnTypeOf(type).type).toBe(type);
  });

  it('matches the type table of DESIGN.md', () => {
    const table = Object.fromEntries(COLUMN_TYPES.map((t) => [t, columnTypes[t].sqlType]));
    expect(table).toEqual({
      text: { sqlite: 'TEXT', postgres: 'text' },
      number: { sqlite: 'REAL', postgres: 'double precision' },
      boolean: { sqlite: 'INTEGER', postgres: 'boolean' },
      date: { sqlite: 'TEXT', postgres: 'timestamptz' },
      date_only: { sqlite: 'TEXT', postgres: 'date' },
      json: { sqlite: 'TEXT', postgres: 'jsonb' },
      array: { sqlite: 'TEXT', postgres: 'jsonb' },
    });
  });

  it('passes null through every operation of every type', () => {
    for (const type of COLUMN_TYPES) {
      const t = columnTypes[type];
      for (const from of ['json', 'form'] as const)
        expect(t.parseInput(null, { from })).toEqual({ ok: true, value: null });
      for (const dialect of ['sqlite', 'postgres'] as const) {
        expect(t.toStorage(null, dialect)).toBeNull();
        expect(t.fromStorage(null, dialect)).toBeNull();
        expect(t.fromStorage(undefined, dialect)).toBeNull();
      }
      for (const other of COLUMN_TYPES) {
        if (t.canConvertFrom(other) !== 'never') expect(t.convertValue(null, other)).toEqual({ ok: true, value: null });
      }
    }
  });

  it('converts every type to itself, to text and to json', () => {
    for (const type of COLUMN_TYPES) {
      expect(columnTypes[type].canConvertFrom(type)).toBe('always');
      expect(columnTypes.text.canConvertFrom(type)).toBe('always');
      expect(columnTypes.json.canConvertFrom(type)).toBe('always');
    }
  });

  it('round-trips parsed values through storage on both engines', () => {
    const samples: Record<ColumnType, CellValue> = {
      text: 'héllo "x"',
      number: -12.5,
      boolean: true,
      date: '2025-05-01T10:00:00.000Z',
      date_only: '2025-05-01',
      json: { a: [1, 'b'] },
      array: [1, 'two', null],
    };
    for (const type of COLUMN_TYPES) {
      const t = columnTypes[type];
      for (const dialect of ['sqlite', 'postgres'] as const) {
        const stored = t.toStorage(samples[type], dialect);
        // pg parses jsonb and timestamptz itself; simulate the driver for those.
        const raw =
          dialect === 'postgres' && (type === 'json' || type === 'array')
            ? JSON.parse(String(stored))
            : dialect === 'postgres' && type === 'date'
              ? new Date(String(stored))
              : dialect === 'postgres' && type === 'date_only'
                ? new Date(2025, 4, 1)
                : stored;
        expect(t.fromStorage(raw, dialect)).toEqual(samples[type]);
      }
    }
  });

  it('isColumnType', () => {
    expect(isColumnType('json')).toBe(true);
    expect(isColumnType('integer')).toBe(false);
  });
});
