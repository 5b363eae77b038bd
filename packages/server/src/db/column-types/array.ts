import { parseArrayLiteral } from './array-literal.js';
import { type CellValue, defineColumnType, fail, type ParseResult, parseJsonText, toJsonValue } from './column-type.js';
import { parseJsonFilterValue } from './json.js';
import { parseNumericText } from './number.js';

const NOT_AN_ARRAY = 'must be a JSON array';

function checkArray(value: unknown): ParseResult {
  if (!Array.isArray(value)) return fail(NOT_AN_ARRAY);
  return toJsonValue(value);
}

function parseArrayText(text: string): ParseResult {
  const parsed = parseJsonText(text);
  return parsed.ok ? checkArray(parsed.value) : fail(NOT_AN_ARRAY);
}

// Elements of a literal are text; unquoted ones that read as numbers, booleans or NULL become those, so that
// `tags=cs.{1,2}` matches [1, 2]. A quoted element is always a string: `{"1"}` matches ["1"].
function literalElementValue(text: string, quoted: boolean): CellValue {
  if (quoted) return text;
  const lower = text.toLowerCase();
  if (lower === 'null') return null;
  if (lower === 'true') return true;
  if (lower === 'false') return false;
  return parseNumericText(text) ?? text;
}

/**
 * arrayType holds a JSON array (TEXT with JSON on SQLite, jsonb on PostgreSQL). A form's text must parse as a
 * JSON array: unlike json, raw text cannot be kept because text is not an array. Filter values are JSON
 * arrays or PostgreSQL array literals (`{a,b}`, what supabase-js sends for contains/containedBy/overlaps).
 */
export const arrayType = defineColumnType({
  type: 'array',
  sqlType: { sqlite: 'TEXT', postgres: 'jsonb' },
  pgTypeName: 'json',
  jsonSchema: { type: 'array', items: {}, description: 'A JSON array' },
  conversions: { text: 'check', json: 'check' },
  parseInput(value, { from }) {
    if (from === 'form' && typeof value === 'string') return parseArrayText(value);
    return checkArray(value);
  },
  toStorage: (value) => JSON.stringify(value),
  fromStorage(raw) {
    if (typeof raw !== 'string') return Array.isArray(raw) ? checkOrEmpty(raw) : null;
    const parsed = parseJsonText(raw);
    return parsed.ok ? parsed.value : raw;
  },
  parseFilterValue(text) {
    const literal = parseArrayLiteral(text);
    // A literal's elements pass the same JSON checks (no \u0000) as JSON text does.
    const parsed = literal
      ? parseJsonFilterValue(JSON.stringify(literal.map((e) => literalElementValue(e.text, e.quoted))))
      : parseJsonFilterValue(text);
    if (parsed.ok && !Array.isArray(parsed.value)) {
      return fail('invalid input syntax for type json', 'Expected a JSON array or an array literal such as {a,b}.');
    }
    return parsed;
  },
  convertValue(value) {
    if (typeof value === 'string') return parseArrayText(value);
    return checkArray(value);
  },
});

function checkOrEmpty(raw: unknown[]): CellValue {
  const checked = toJsonValue(raw);
  return checked.ok ? checked.value : [];
}
