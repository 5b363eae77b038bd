import { defineColumnType, fail, NUL_MESSAGE, ok, type PresentValue, toJsonValue } from './column-type.js';

/** valueToText is how a present value of any type reads as text (retype to text, structures from forms). */
function valueToText(value: PresentValue): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/**
 * textType holds strings. From a form it also takes numbers, booleans and structures as their text: the
 * console parses inputs wrapped in braces or brackets into structures, and for a text
 * column the user meant the text they typed.
 */
export const textType = defineColumnType({
  type: 'text',
  sqlType: { sqlite: 'TEXT', postgres: 'text' },
  pgTypeName: 'text',
  jsonSchema: { type: 'string' },
  conversions: {
    number: 'always',
    boolean: 'always',
    date: 'always',
    date_only: 'always',
    json: 'always',
    array: 'always',
  },
  parseInput(value, { from }) {
    if (typeof value === 'string') return value.includes('\0') ? fail(NUL_MESSAGE) : ok(value);
    if (from !== 'form') return fail('must be text');
    const json = toJsonValue(value);
    if (!json.ok || json.value === null) return fail('must be text');
    return ok(valueToText(json.value));
  },
  toStorage: (value) => valueToText(value),
  fromStorage: (raw) => (typeof raw === 'string' ? raw : String(raw)),
  parseFilterValue: (text) =>
    text.includes('\0') ? fail('invalid byte sequence for encoding "UTF8": 0x00', undefined, '22021') : ok(text),
  convertValue: (value) => ok(valueToText(value)),
});
