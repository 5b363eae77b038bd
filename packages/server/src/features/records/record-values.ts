import type { ColumnDefinition } from '@basalt/shared';
import { storedDefault } from '../../db/column-types/column-default.js';
import type { CellValue, InputSource } from '../../db/column-types/column-type.js';
import { dateType } from '../../db/column-types/date.js';
import { columnTypeOf } from '../../db/column-types/registry.js';
import type { DialectName } from '../../db/dialect/dialect.js';
import type { TableDefinition, UserTableShape } from '../../db/user-tables.js';
import { invalidValue, notNullViolation, unknownColumn } from './record-errors.js';
import type { RawRow, StoredRow } from './records.store.js';

// A form's empty field means "not given" on create (it is dropped above), so only JSON can send an explicit null.
function sentAsNull(input: RecordInput, column: string, from: InputSource): boolean {
  return from === 'json' && Object.hasOwn(input, column) && input[column] === null;
}

/** defaultValue is a column's default as bound for a new record: 'now' is the time (or UTC day) of the insert. */
function defaultValue(dialect: DialectName, table: TableDefinition, column: string, definition: ColumnDefinition) {
  const stored = storedDefault(definition.type, definition.default ?? null, dialect, new Date());
  // The schema's check admitted the default; a refusal here names the column as a bad value would.
  if (!stored.ok) throw invalidValue(table, column, stored.message);
  return stored.value;
}

/** RecordRow is a record as every API returns it: id, the user's columns in schema order, created_at, updated_at. */
export type RecordRow = { id: number } & { [column: string]: CellValue };

/** RecordInput is a record as a client sends it (a JSON object, or a form's fields). */
export type RecordInput = Record<string, unknown>;

// Dates are stored in this exact form on SQLite (the date type normalises every input to it): such text is
// already its API value, and skipping the parse keeps reading a page of rows cheap.
const CANONICAL_DATE = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

function dateValue(raw: unknown, dialect: DialectName): CellValue {
  return typeof raw === 'string' && CANONICAL_DATE.test(raw) ? raw : dateType.fromStorage(raw, dialect);
}

/** toRecordRow turns a stored row into API values: booleans never 0/1, json as values, dates ISO 8601. */
export function toRecordRow(dialect: DialectName, table: TableDefinition, raw: RawRow): RecordRow {
  const row: Record<string, CellValue> = { id: Number(raw.id) };
  for (const column in table.schema) {
    const definition = table.schema[column] as ColumnDefinition;
    row[column] =
      definition.type === 'date'
        ? dateValue(raw[column], dialect)
        : columnTypeOf(definition.type).fromStorage(raw[column], dialect);
  }
  row.created_at = dateValue(raw.created_at, dialect);
  row.updated_at = dateValue(raw.updated_at, dialect);
  return row as RecordRow;
}

/**
 * toRecordColumns turns some columns of a stored row (`columns`, in the table's column order, and their values at
 * the same places, as a related read's JSON carried them) into API values exactly as toRecordRow does.
 */
export function toRecordColumns(
  dialect: DialectName,
  table: UserTableShape,
  columns: readonly string[],
  values: readonly unknown[],
): Record<string, CellValue> {
  const row: Record<string, CellValue> = {};
  for (let i = 0; i < columns.length; i++) {
    const column = columns[i] as string;
    const raw = values[i];
    if (column === 'id') row.id = Number(raw);
    else if (column === 'created_at' || column === 'updated_at') row[column] = dateValue(raw, dialect);
    else {
      const type = (table.schema[column] as ColumnDefinition).type;
      row[column] = type === 'date' ? dateValue(raw, dialect) : columnTypeOf(type).fromStorage(raw, dialect);
    }
  }
  return row;
}

function isPlainObject(value: unknown): value is RecordInput {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** InputMode says whether a record is created (required columns must be there) or changed. */
export type InputMode = 'create' | 'update';

function parseId(table: TableDefinition, value: unknown, from: InputSource): number {
  const n = from === 'form' && typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isSafeInteger(n)) throw invalidValue(table, 'id', 'must be a whole number');
  return n;
}

/**
 * storedInputRow validates one record against the table's schema and returns the values to bind. Unknown
 * columns are refused; `id` is accepted on create (and ignored on update), created_at and updated_at are
 * the server's and ignored. From a form: values are text and convert per type, and
 * an empty field is dropped on create and clears a non-text column on update.
 */
export function storedInputRow(
  dialect: DialectName,
  table: TableDefinition,
  input: unknown,
  { from, mode }: { from: InputSource; mode: InputMode },
): StoredRow {
  if (!isPlainObject(input)) throw invalidValue(table, null, 'Each record must be a JSON object');
  const stored: StoredRow = {};
  for (const key of Object.keys(input)) {
    let value = input[key];
    if (key === 'created_at' || key === 'updated_at') continue;
    if (key === 'id') {
      if (mode === 'create' && value !== null && value !== undefined && value !== '')
        stored.id = parseId(table, value, from);
      continue;
    }
    const definition = Object.hasOwn(table.schema, key) ? table.schema[key] : undefined;
    if (!definition) throw unknownColumn(table, key);
    if (value === undefined) continue;
    if (from === 'form' && value === '') {
      if (mode === 'create') continue;
      if (definition.type !== 'text') value = null;
    }
    const type = columnTypeOf(definition.type);
    const parsed = type.parseInput(value, { from });
    if (!parsed.ok) throw invalidValue(table, key, parsed.message);
    if (parsed.value === null && definition.required) throw notNullViolation(table, key);
    stored[key] = type.toStorage(parsed.value, dialect);
  }
  if (mode === 'create') {
    for (const column in table.schema) {
      const definition = table.schema[column];
      // PostgREST's semantics: a column left out takes its default; one sent as null stays null.
      if (definition?.default !== undefined && !Object.hasOwn(stored, column) && !sentAsNull(input, column, from)) {
        stored[column] = defaultValue(dialect, table, column, definition);
      }
      if (table.schema[column]?.required && (stored[column] === undefined || stored[column] === null)) {
        throw notNullViolation(table, column);
      }
    }
  }
  return stored;
}
