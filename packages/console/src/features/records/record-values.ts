import { type ColumnDefinition, type ColumnType, isSystemColumnName, type TableSchema } from '@basalt/shared';

// What the Add Record and Edit Record form send, and how records read in the grid:
// - the id field (and the other system columns) is skipped;
// - number input becomes a number, the True/False select a boolean, a date input its YYYY-MM-DD text;
// - json and array input is parsed as JSON; text that does not parse is refused with the field's message;
// - on create, empty fields are left out and text wrapped in braces or brackets is parsed into a structure
//   (kept as text when it does not parse). Text columns keep exactly what was typed: the server stores them
//   as text, and "[draft]" or "{name}" are ordinary titles.

/** RecordFormValues are the raw strings of the form's inputs, by column name. */
export type RecordFormValues = Record<string, string>;

/** RecordFormErrors are the form's messages, by column name. */
export type RecordFormErrors = Record<string, string>;

/** editableColumns are the columns a record form shows: every column but the system ones, in order. */
export function editableColumns(schema: TableSchema): Array<[string, ColumnDefinition]> {
  return Object.entries(schema).filter(([name]) => !isSystemColumnName(name));
}

const DATE_PREFIX = /^(\d{4}-\d{2}-\d{2})/;

/** toFormValue is a stored value as its input shows it. */
export function toFormValue(type: ColumnType, value: unknown): string {
  if (value === null || value === undefined) return '';
  switch (type) {
    case 'boolean':
      return value === true ? 'true' : value === false ? 'false' : '';
    case 'date':
    case 'date_only':
      return typeof value === 'string' ? (DATE_PREFIX.exec(value)?.[1] ?? value) : '';
    case 'json':
    case 'array':
      return typeof value === 'string' ? value : JSON.stringify(value, null, 2);
    default:
      return typeof value === 'string' ? value : String(value);
  }
}

/** parseJsonOrKeep parses JSON text, or returns the text itself when it is not JSON. */
export function parseJsonOrKeep(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** isJsonText tells whether text parses as JSON. */
function isJsonText(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** parseStructuredText parses text wrapped in braces or brackets into an object or array, else keeps it. */
export function parseStructuredText(text: string): unknown {
  const trimmed = text.trim();
  const wrapped =
    (trimmed.startsWith('{') && trimmed.endsWith('}')) || (trimmed.startsWith('[') && trimmed.endsWith(']'));
  return wrapped ? parseJsonOrKeep(trimmed) : text;
}

/** fromFormValue converts an input's text to the value sent for its column type; '' stays '' (empty). */
export function fromFormValue(type: ColumnType, raw: string): unknown {
  switch (type) {
    case 'number': {
      if (raw.trim() === '') return '';
      const n = Number(raw);
      return Number.isFinite(n) ? n : raw;
    }
    case 'boolean':
      return raw === 'true' ? true : raw === 'false' ? false : '';
    case 'json':
    case 'array':
      return raw.trim() === '' ? '' : parseJsonOrKeep(raw);
    default:
      return raw;
  }
}

/** buildCreatePayload is what Add Record inserts: converted values, empty fields dropped. */
export function buildCreatePayload(schema: TableSchema, values: RecordFormValues): Record<string, unknown> {
  const payload: Record<string, unknown> = {};
  for (const [name, { type }] of editableColumns(schema)) {
    let value = fromFormValue(type, values[name] ?? '');
    if (value === '') continue;
    if (typeof value === 'string' && type !== 'text') value = parseStructuredText(value);
    payload[name] = value;
  }
  return payload;
}

/** buildUpdatePayload is what Edit Record sends: every column's converted value, an emptied field as null. */
export function buildUpdatePayload(schema: TableSchema, values: RecordFormValues): Record<string, unknown> {
  const payload: Record<string, unknown> = {};
  for (const [name, { type }] of editableColumns(schema)) {
    const value = fromFormValue(type, values[name] ?? '');
    payload[name] = value === '' ? null : value;
  }
  return payload;
}

/** initialFormValues are the form's starting texts: a record's values, or all empty for a new record. */
export function initialFormValues(schema: TableSchema, record?: Record<string, unknown>): RecordFormValues {
  return Object.fromEntries(
    editableColumns(schema).map(([name, { type }]) => [name, toFormValue(type, record?.[name])]),
  );
}

/**
 * validateRecordValues checks what the server would refuse anyway, with the server's messages: a missing
 * required value, a number that is not one, an array that is not a JSON array.
 */
export function validateRecordValues(schema: TableSchema, values: RecordFormValues): RecordFormErrors {
  const errors: RecordFormErrors = {};
  for (const [name, { type, required }] of editableColumns(schema)) {
    const raw = values[name] ?? '';
    if (raw.trim() === '') {
      if (required) errors[name] = `"${name}" is required`;
      continue;
    }
    const value = fromFormValue(type, raw);
    if (type === 'number' && typeof value !== 'number') errors[name] = `"${name}" must be a number`;
    if (type === 'array' && !Array.isArray(value)) errors[name] = `"${name}" must be a JSON array`;
    // Text that does not parse would be stored as a JSON string of itself ('{"a":' as "{\"a\":"): refused.
    if (type === 'json' && !isJsonText(raw)) errors[name] = `"${name}" must be valid JSON`;
  }
  return errors;
}

/** formatCellValue is how the grid shows a value: objects as JSON text, null empty, midnight dates as the day. */
export function formatCellValue(value: unknown, type?: ColumnType): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  if (type === 'date' && typeof value === 'string' && value.endsWith('T00:00:00.000Z')) return value.slice(0, 10);
  return String(value);
}
