import { defineColumnType, fail, invalidSyntax, ok } from './column-type.js';

const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const INFINITY = /^[+-]?(?:infinity|inf)$/i;

/** parseNumericText reads a decimal number (surrounding spaces allowed), or returns null; never NaN or ±Infinity. */
export function parseNumericText(text: string): number | null {
  const trimmed = text.trim();
  if (!DECIMAL.test(trimmed)) return null;
  const n = Number(trimmed);
  return Number.isFinite(n) ? n : null;
}

/**
 * numberType holds finite double-precision numbers. JSON bodies must send numbers; a form sends text, so a
 * numeric string from a form is converted (DESIGN.md "Data").
 */
export const numberType = defineColumnType({
  type: 'number',
  sqlType: { sqlite: 'REAL', postgres: 'double precision' },
  pgTypeName: 'double precision',
  jsonSchema: { type: 'number' },
  conversions: { text: 'check', boolean: 'always', json: 'check' },
  parseInput(value, { from }) {
    if (typeof value === 'number') return Number.isFinite(value) ? ok(value) : fail('must be a finite number');
    if (from === 'form' && typeof value === 'string') {
      const n = parseNumericText(value);
      return n === null ? fail('must be a number') : ok(n);
    }
    return fail('must be a number');
  },
  toStorage: (value) => (typeof value === 'number' ? value : Number(value)),
  fromStorage: (raw) => (typeof raw === 'number' ? raw : Number(raw)),
  parseFilterValue(text) {
    // PostgreSQL's float8 input also takes Infinity; NaN is refused because SQLite binds it as NULL and the
    // two engines would then disagree.
    if (INFINITY.test(text.trim())) return ok(text.trim().startsWith('-') ? -Infinity : Infinity);
    const n = parseNumericText(text);
    return n === null ? invalidSyntax('double precision', text) : ok(n);
  },
  convertValue(value, fromType) {
    if (typeof value === 'number') return ok(value);
    if (fromType === 'boolean' && typeof value === 'boolean') return ok(value ? 1 : 0);
    const n = typeof value === 'string' ? parseNumericText(value) : null;
    return n === null ? fail('must be a number') : ok(n);
  },
});
