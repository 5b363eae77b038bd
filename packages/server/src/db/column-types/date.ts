import { defineColumnType, fail, invalidSyntax, ok } from './column-type.js';

// YYYY-MM-DD, optionally followed by T (or a space) and hh:mm[:ss[.fraction]] and a zone (Z, ±hh, ±hhmm, ±hh:mm).
const ISO_DATE =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?\s*([Zz]|[+-]\d{2}(?::?\d{2})?)?)?$/;

/**
 * parseIsoDate reads an ISO 8601 date or date-time and returns it normalised to `YYYY-MM-DDTHH:mm:ss.sssZ`,
 * or null. A date alone is midnight UTC; a date-time without a zone is UTC (Basalt's sessions run in UTC).
 * Fractions past milliseconds are cut; impossible dates (2025-02-30, 24:01) are refused.
 */
export function parseIsoDate(text: string): string | null {
  const m = ISO_DATE.exec(text.trim());
  if (!m) return null;
  const [, y, mo, d, h = '0', mi = '0', s = '0', fraction = '', zone = 'Z'] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s);
  const ms = Number(fraction.slice(0, 3).padEnd(3, '0'));
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  if (minute > 59 || second > 59 || hour > 24 || (hour === 24 && (minute > 0 || second > 0 || ms > 0))) return null;
  let offsetMinutes = 0;
  if (zone !== 'Z' && zone !== 'z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    const oh = Number(digits.slice(0, 2));
    const om = Number(digits.slice(2) || '0');
    if (oh > 23 || om > 59) return null;
    offsetMinutes = sign * (oh * 60 + om);
  }
  // setUTCFullYear, unlike Date.UTC, keeps years 0–99 as written instead of mapping them to 1900–1999.
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute - offsetMinutes, second, ms);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(2000, month, 0)).getUTCDate() - (month === 2 && !isLeapYear(year) ? 1 : 0);
}

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/** dateType holds instants as ISO 8601 text (SQLite) or timestamptz (PostgreSQL); the API answers ISO strings. */
export const dateType = defineColumnType({
  type: 'date',
  sqlType: { sqlite: 'TEXT', postgres: 'timestamptz' },
  pgTypeName: 'timestamp with time zone',
  jsonSchema: {
    type: 'string',
    format: 'date-time',
    description: 'ISO 8601; a date alone (2025-05-01) is accepted on input and read back as midnight UTC',
  },
  conversions: { text: 'check', date_only: 'always', json: 'check' },
  parseInput(value) {
    const iso = typeof value === 'string' ? parseIsoDate(value) : null;
    return iso === null
      ? fail('must be an ISO 8601 date or date-time, such as 2025-05-01 or 2025-05-01T10:00:00Z')
      : ok(iso);
  },
  toStorage: (value) => String(value),
  fromStorage(raw) {
    if (raw instanceof Date) return raw.toISOString();
    const text = String(raw);
    return parseIsoDate(text) ?? text;
  },
  parseFilterValue(text) {
    const iso = parseIsoDate(text);
    return iso === null ? invalidSyntax('timestamp with time zone', text) : ok(iso);
  },
  convertValue(value) {
    const iso = typeof value === 'string' ? parseIsoDate(value) : null;
    return iso === null ? fail('must be an ISO 8601 date or date-time') : ok(iso);
  },
});
