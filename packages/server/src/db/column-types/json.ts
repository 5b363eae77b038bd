import {
  defineColumnType,
  fail,
  NUL_MESSAGE,
  ok,
  type ParseResult,
  parseJsonText,
  toJsonValue,
} from './column-type.js';

/** parseJsonOrKeepText parses JSON text, keeping the text itself (a JSON string value) when it is not JSON. */
function parseJsonOrKeepText(text: string): ParseResult {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return toJsonValue(text);
  }
  return toJsonValue(parsed);
}

/** invalidJson is PostgreSQL's 22P02 for text that is not JSON, naming the first bad token as it does. */
export function invalidJson(text: string): ParseResult {
  const token = /^\s*([^\s{}[\],:"]+|.)/.exec(text)?.[1];
  return token === undefined
    ? fail('invalid input syntax for type json', 'The input string ended unexpectedly.')
    : fail('invalid input syntax for type json', `Token "${token}" is invalid.`);
}

/** parseJsonFilterValue reads a filter value as jsonb input does: JSON text without \u0000, else 22P02/22P05. */
export function parseJsonFilterValue(text: string): ParseResult {
  const parsed = parseJsonText(text);
  if (parsed.ok) return parsed;
  if (parsed.message === NUL_MESSAGE) {
    return fail('unsupported Unicode escape sequence', '\\u0000 cannot be converted to text.', '22P05');
  }
  return invalidJson(text);
}

/**
 * jsonType holds any JSON value (TEXT with JSON on SQLite, jsonb on PostgreSQL). A JSON body's value is taken
 * as is. A form sends text: it is parsed as JSON, and text that is not JSON is kept as a JSON string value
 *, so `hello` is stored as "hello".
 * SQL NULL and JSON null are not told apart: a null value is SQL NULL, as PostgREST does for jsonb.
 */
export const jsonType = defineColumnType({
  type: 'json',
  sqlType: { sqlite: 'TEXT', postgres: 'jsonb' },
  pgTypeName: 'json',
  jsonSchema: { description: 'Any JSON value' },
  conversions: {
    text: 'always',
    number: 'always',
    boolean: 'always',
    date: 'always',
    date_only: 'always',
    array: 'always',
  },
  parseInput(value, { from }) {
    if (from === 'form' && typeof value === 'string') return parseJsonOrKeepText(value);
    return toJsonValue(value);
  },
  toStorage: (value) => JSON.stringify(value),
  fromStorage(raw, dialect) {
    // pg parses jsonb itself (a JSON string arrives as a JS string); SQLite returns the stored JSON text.
    if (dialect === 'postgres' || typeof raw !== 'string') return toJsonValueOrNull(raw);
    const parsed = parseJsonText(raw);
    return parsed.ok ? parsed.value : raw;
  },
  parseFilterValue: parseJsonFilterValue,
  convertValue(value, fromType) {
    // Text that looks like a structure becomes one, the rule the console applies to form input; other
    // text stays a JSON string so that no value is lost or changes meaning.
    if (fromType === 'text' && typeof value === 'string' && /^\s*[[{]/.test(value)) return parseJsonOrKeepText(value);
    return ok(value);
  },
});

function toJsonValueOrNull(raw: unknown) {
  const checked = toJsonValue(raw);
  return checked.ok ? checked.value : null;
}
