import { defineColumnType, fail, invalidSyntax, ok } from './column-type.js';
import { parseIsoDate } from './date.js';

// A calendar date without a time (PostgreSQL's `date`, Supabase's date columns): 'YYYY-MM-DD' in and out.

// A date, optionally followed by a time: PostgreSQL's date input keeps the date as written and drops the rest.
const DATE_PREFIX = /^\s*(\d{4}-\d{2}-\d{2})(?:$|[Tt ]|\s*$)/;

/**
 * parseDateOnly reads 'YYYY-MM-DD' (or an ISO 8601 date-time, whose date is kept as written, as PostgreSQL
 * does) and returns 'YYYY-MM-DD', or null for anything else or an impossible date (2025-02-30).
 */
export function parseDateOnly(text: string): string | null {
  const m = DATE_PREFIX.exec(text);
  if (!m?.[1] || parseIsoDate(text) === null) return null;
  return m[1];
}

const pad = (n: number, width: number) => String(n).padStart(width, '0');

/** dateOnlyType holds calendar dates as 'YYYY-MM-DD': TEXT on SQLite, `date` on PostgreSQL. */
export const dateOnlyType = defineColumnType({
  type: 'date_only',
  sqlType: { sqlite: 'TEXT', postgres: 'date' },
  pgTypeName: 'date',
  jsonSchema: { type: 'string', format: 'date', description: 'A calendar date, YYYY-MM-DD' },
  conversions: { text: 'check', date: 'always', json: 'check' },
  parseInput(value) {
    const date = typeof value === 'string' ? parseDateOnly(value) : null;
    return date === null ? fail('must be a date, YYYY-MM-DD (such as 2025-05-01)') : ok(date);
  },
  toStorage: (value) => String(value),
  fromStorage(raw) {
    // node-postgres reads a `date` as local midnight of that day: its local fields are the date.
    if (raw instanceof Date)
      return `${pad(raw.getFullYear(), 4)}-${pad(raw.getMonth() + 1, 2)}-${pad(raw.getDate(), 2)}`;
    const text = String(raw);
    return parseDateOnly(text) ?? text;
  },
  parseFilterValue(text) {
    const date = parseDateOnly(text);
    return date === null ? invalidSyntax('date', text) : ok(date);
  },
  convertValue(value, fromType) {
    if (typeof value !== 'string') return fail('must be a date, YYYY-MM-DD');
    // A timestamp keeps its UTC day (Basalt's sessions run in UTC).
    if (fromType === 'date') return ok(value.slice(0, 10));
    const date = parseDateOnly(value);
    return date === null ? fail('must be a date, YYYY-MM-DD') : ok(date);
  },
});
