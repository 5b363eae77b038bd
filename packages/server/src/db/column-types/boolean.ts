import { defineColumnType, fail, invalidSyntax, ok } from './column-type.js';
import { parseNumericText } from './number.js';

// PostgreSQL's boolean input: any prefix of true/false/yes/no, on/off, 1/0, case-insensitive, trimmed.
const TRUE_WORDS = ['true', 'yes'];
const FALSE_WORDS = ['false', 'no'];

/** parseBooleanText reads text the way PostgreSQL's boolean input does, or returns null. */
export function parseBooleanText(text: string): boolean | null {
  const t = text.trim().toLowerCase();
  if (t === '') return null;
  if (t === '1' || t === 'on') return true;
  if (t === '0' || t === 'of' || t === 'off') return false;
  if (TRUE_WORDS.some((w) => w.startsWith(t))) return true;
  if (FALSE_WORDS.some((w) => w.startsWith(t))) return false;
  return null;
}

/**
 * booleanType holds true/false; SQLite stores 0/1 and the API always answers booleans. A form sends the
 * text "true" or "false" (the console's True/False select).
 */
export const booleanType = defineColumnType({
  type: 'boolean',
  sqlType: { sqlite: 'INTEGER', postgres: 'boolean' },
  pgTypeName: 'boolean',
  jsonSchema: { type: 'boolean' },
  conversions: { text: 'check', number: 'check', json: 'check' },
  parseInput(value, { from }) {
    if (typeof value === 'boolean') return ok(value);
    if (from === 'form' && typeof value === 'string') {
      const t = value.trim().toLowerCase();
      if (t === 'true') return ok(true);
      if (t === 'false') return ok(false);
    }
    return fail('must be true or false');
  },
  toStorage: (value, dialect) => {
    const b = value === true;
    return dialect === 'sqlite' ? (b ? 1 : 0) : b;
  },
  fromStorage: (raw) => {
    if (typeof raw === 'boolean') return raw;
    if (typeof raw === 'number' || typeof raw === 'bigint') return Number(raw) !== 0;
    return parseBooleanText(String(raw)) ?? false;
  },
  parseFilterValue(text) {
    const b = parseBooleanText(text);
    return b === null ? invalidSyntax('boolean', text) : ok(b);
  },
  convertValue(value) {
    if (typeof value === 'boolean') return ok(value);
    if (typeof value === 'number') {
      if (value === 1) return ok(true);
      if (value === 0) return ok(false);
      return fail('must be 0 or 1 to become true or false');
    }
    if (typeof value === 'string') {
      const b = parseBooleanText(value) ?? numericBoolean(value);
      if (b !== null) return ok(b);
    }
    return fail('must be true or false');
  },
});

function numericBoolean(text: string): boolean | null {
  const n = parseNumericText(text);
  return n === 1 ? true : n === 0 ? false : null;
}
