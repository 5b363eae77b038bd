import type { ColumnType } from '@basalt/shared';
import type { DialectName } from '../dialect/dialect.js';

/** JsonValue is any value JSON can carry. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** JsonSchema is a JSON Schema (2020-12, as OpenAPI 3.1 uses it) of a column's values. */
export type JsonSchema = { [keyword: string]: JsonValue };

/** CellValue is one column's value as the API sees it: null is SQL NULL, dates are ISO 8601 strings. */
export type CellValue = JsonValue;

/** StorageValue is what a value is bound as in SQL: every engine parameter type Basalt uses. */
export type StorageValue = string | number | boolean | null;

/** InputSource tells where a value came from: a JSON body, or a form whose inputs are text. */
export type InputSource = 'json' | 'form';

/**
 * ParseResult is a converted value, or the reason it cannot be converted. A filter failure may name the
 * PostgreSQL error code when it is not 22P02.
 */
export type ParseResult =
  | { ok: true; value: CellValue }
  | { ok: false; message: string; details?: string; code?: string };

/**
 * Conversion says whether a type can hold another type's values: 'always' (every value converts),
 * 'check' (some may not: each row must be tried, see convertValue) or 'never'.
 */
export type Conversion = 'always' | 'check' | 'never';

/**
 * ColumnTypeDefinition is one column type (STYLE.md, Server rule 7): how it is declared in SQL, which input it
 * accepts, how it is stored and read back, how query-string filter values convert, and how a column of
 * another type converts to it. A null value is SQL NULL and always passes through unchanged.
 */
export interface ColumnTypeDefinition {
  readonly type: ColumnType;
  /** sqlType is the column's declared type per engine (DESIGN.md "Data"). */
  readonly sqlType: Readonly<Record<DialectName, string>>;
  /** pgTypeName is the PostgreSQL type named in 22P02 messages. */
  readonly pgTypeName: string;
  /** jsonSchema describes a present value as the APIs send and return it (the OpenAPI document's schemas). */
  readonly jsonSchema: Readonly<JsonSchema>;
  /**
   * parseInput converts a record value (body field or form input) to the column's value; a failure's message
   * is a predicate to put after the column name: `"qty" must be a number`.
   */
  parseInput(value: unknown, options: { from: InputSource }): ParseResult;
  /** toStorage turns a parsed value into the parameter bound for this engine. */
  toStorage(value: CellValue, dialect: DialectName): StorageValue;
  /** fromStorage turns what the engine's driver returns into the API value. */
  fromStorage(raw: unknown, dialect: DialectName): CellValue;
  /**
   * parseFilterValue converts a query-string comparison value (`qty=gt.5`, elements of `in.(…)`, `cs.{…}`);
   * a failure's message is PostgreSQL's 22P02 text, `invalid input syntax for type {pgTypeName}: "{value}"`.
   * Pattern operators (like, ilike, match, imatch) take their text as is and do not come here.
   */
  parseFilterValue(text: string): ParseResult;
  /** canConvertFrom tells whether a column of another type can be changed to this type. */
  canConvertFrom(other: ColumnType): Conversion;
  /** convertValue converts one value of a column of another type; the message is a predicate like parseInput's. */
  convertValue(value: CellValue, fromType: ColumnType): ParseResult;
}

/** PresentValue is a value that is not SQL NULL. */
export type PresentValue = Exclude<CellValue, null>;

/** ColumnTypeSpec is a type's own logic for present values; defineColumnType adds what every type shares. */
export interface ColumnTypeSpec {
  readonly type: ColumnType;
  readonly sqlType: Readonly<Record<DialectName, string>>;
  readonly pgTypeName: string;
  readonly jsonSchema: Readonly<JsonSchema>;
  /** conversions lists the conversion from each other type; unlisted types are 'never'. */
  readonly conversions: Readonly<Partial<Record<ColumnType, Conversion>>>;
  parseInput(value: NonNullable<unknown>, options: { from: InputSource }): ParseResult;
  toStorage(value: PresentValue, dialect: DialectName): Exclude<StorageValue, null>;
  fromStorage(raw: NonNullable<unknown>, dialect: DialectName): CellValue;
  parseFilterValue(text: string): ParseResult;
  convertValue(value: PresentValue, fromType: ColumnType): ParseResult;
}

/** defineColumnType builds a type from its parts: nulls pass through, conversions follow its list. */
export function defineColumnType(spec: ColumnTypeSpec): ColumnTypeDefinition {
  const conversionFrom = (other: ColumnType): Conversion =>
    other === spec.type ? 'always' : (spec.conversions[other] ?? 'never');
  return {
    type: spec.type,
    sqlType: spec.sqlType,
    pgTypeName: spec.pgTypeName,
    jsonSchema: spec.jsonSchema,
    parseInput: (value, options) =>
      value === null || value === undefined ? ok(null) : spec.parseInput(value, options),
    toStorage: (value, dialect) => (value === null ? null : spec.toStorage(value, dialect)),
    fromStorage: (raw, dialect) => (raw === null || raw === undefined ? null : spec.fromStorage(raw, dialect)),
    parseFilterValue: (text) => spec.parseFilterValue(text),
    canConvertFrom: conversionFrom,
    convertValue: (value, fromType) => {
      if (value === null || fromType === spec.type) return ok(value);
      if (conversionFrom(fromType) === 'never') return fail(`cannot be converted from ${fromType} to ${spec.type}`);
      return spec.convertValue(value, fromType);
    },
  };
}

/** ok is a successful ParseResult. */
export const ok = (value: CellValue): ParseResult => ({ ok: true, value });

/** fail is a failed ParseResult. */
export const fail = (message: string, details?: string, code?: string): ParseResult => ({
  ok: false,
  message,
  ...(details === undefined ? {} : { details }),
  ...(code === undefined ? {} : { code }),
});

/** NUL_MESSAGE refuses text with U+0000, which PostgreSQL cannot store in text or jsonb (SQLite could). */
export const NUL_MESSAGE = 'must not contain the NUL character (\\u0000)';

/** invalidSyntax is PostgreSQL's 22P02 failure for a filter value of a type. */
export const invalidSyntax = (pgTypeName: string, text: string): ParseResult =>
  fail(`invalid input syntax for type ${pgTypeName}: "${text}"`);

// Deeper values are refused: JSON.stringify and the engines' JSON functions recurse, and no real record
// needs more levels than this.
const MAX_JSON_DEPTH = 100;

/** toJsonValue checks that a value is plain JSON (no undefined, functions, NaN, cycles) within the depth limit. */
export function toJsonValue(value: unknown): ParseResult {
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 1 }];
  // JSON text never yields a shared or cyclic object; program data might, and a cycle must not spin.
  const seen = new Set<object>();
  while (stack.length > 0) {
    const item = stack.pop();
    if (!item) break;
    const v = item.value;
    if (typeof v === 'string') {
      if (v.includes('\0')) return fail(NUL_MESSAGE);
      continue;
    }
    if (v === null || typeof v === 'boolean') continue;
    if (typeof v === 'number') {
      if (!Number.isFinite(v)) return fail('must be a JSON value (numbers must be finite)');
      continue;
    }
    if (typeof v !== 'object') return fail('must be a JSON value');
    if (item.depth > MAX_JSON_DEPTH) return fail(`is nested too deeply (at most ${MAX_JSON_DEPTH} levels)`);
    if (seen.has(v)) return fail('must be a JSON value');
    seen.add(v);
    if (!Array.isArray(v) && Object.getPrototypeOf(v) !== Object.prototype && Object.getPrototypeOf(v) !== null) {
      return fail('must be a JSON value');
    }
    if (!Array.isArray(v) && Object.keys(v).some((key) => key.includes('\0'))) return fail(NUL_MESSAGE);
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push({ value: child, depth: item.depth + 1 });
  }
  // The walk above proved the shape; a JSON round trip would cost a copy for nothing.
  return { ok: true, value: value as JsonValue };
}

/** parseJsonText parses JSON text into a checked JsonValue, or fails with a message. */
export function parseJsonText(text: string): ParseResult {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return fail('must be valid JSON');
  }
  return toJsonValue(parsed);
}
