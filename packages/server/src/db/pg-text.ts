import type { ColumnType } from '@basalt/shared';
import type { CellValue } from './column-types/column-type.js';
import { jsonbText } from './jsonb.js';

// How PostgreSQL prints a stored value as text, for the texts only PostgreSQL writes: a unique violation's
// `Key (title)=(Apple) already exists.` On SQLite Basalt words that detail itself, from these, so that both
// engines answer alike (PostgreSQL sessions run in UTC, see db/dialect/postgres.ts).

/** float8Text is `double precision` output: the shortest exact digits, an exponent below 1e-4 and from 1e15. */
export function float8Text(n: number): string {
  if (Number.isNaN(n)) return 'NaN';
  if (!Number.isFinite(n)) return n > 0 ? 'Infinity' : '-Infinity';
  if (Object.is(n, -0)) return '-0';
  const [mantissa = '0', exponent = '0'] = n.toExponential().split('e');
  const e = Number(exponent);
  if (e >= -4 && e < 15) return String(n);
  return `${mantissa}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
}

/** timestamptzText is `timestamptz` output in UTC: `2025-01-01 10:00:00.5+00` (no trailing zeros). */
export function timestamptzText(iso: string): string {
  const m = /^(\d{4}-\d\d-\d\d)T(\d\d:\d\d:\d\d)(?:\.(\d+))?Z$/.exec(iso);
  if (!m) return iso;
  const fraction = (m[3] ?? '').replace(/0+$/, '');
  return `${m[1]} ${m[2]}${fraction ? `.${fraction}` : ''}+00`;
}

/** pgText is PostgreSQL's text of a column value (an API value, not SQL NULL) of a Basalt column type. */
export function pgText(type: ColumnType, value: Exclude<CellValue, null>): string {
  switch (type) {
    case 'number':
      return typeof value === 'number' ? float8Text(value) : String(value);
    case 'boolean':
      return value === true ? 't' : 'f';
    case 'date':
      return timestamptzText(String(value));
    case 'date_only':
      return String(value);
    case 'json':
    case 'array':
      return jsonbText(value);
    case 'text':
      return typeof value === 'string' ? value : JSON.stringify(value);
  }
}
