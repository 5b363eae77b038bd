import { type ColumnDefault, type ColumnType, DEFAULT_NOW } from '@basalt/shared';
import type { DialectName } from '../dialect/dialect.js';
import type { ParseResult, StorageValue } from './column-type.js';
import { columnTypeOf } from './registry.js';

// A column's default (shared: columnDefaultProblem admits it) as the value bound for a new record or for the rows
// a new column is added to: a literal, or 'now' on a date (the instant) or date_only column (its UTC day).

/** storedDefault converts a column's default for binding, `now` being the time of the write. */
export function storedDefault(
  type: ColumnType,
  value: ColumnDefault,
  dialect: DialectName,
  now: Date,
): { ok: true; value: StorageValue } | Extract<ParseResult, { ok: false }> {
  const iso = now.toISOString();
  const literal =
    value === DEFAULT_NOW && type === 'date'
      ? iso
      : value === DEFAULT_NOW && type === 'date_only'
        ? iso.slice(0, 10)
        : value;
  const definition = columnTypeOf(type);
  const parsed = definition.parseInput(literal, { from: 'json' });
  return parsed.ok ? { ok: true, value: definition.toStorage(parsed.value, dialect) } : parsed;
}
