import { z } from 'zod';
import { tableAccessSchema } from './access.schemas.js';
import { isReservedTableName } from './reserved-table-names.js';

/** COLUMN_TYPES lists the column types of DESIGN.md "Data"; adding one is one member here plus its files. */
export const COLUMN_TYPES = ['text', 'number', 'boolean', 'date', 'date_only', 'json', 'array'] as const;

/** columnTypeSchema is one of the column types (`date` is a timestamp, `date_only` a calendar date). */
export const columnTypeSchema = z.enum(COLUMN_TYPES, {
  error: 'Column type must be one of: text, number, boolean, date, date_only, json, array',
});
/** ColumnType is one of COLUMN_TYPES. */
export type ColumnType = z.infer<typeof columnTypeSchema>;

/** TABLE_LIMITS are the name, description and size limits of tables. */
export const TABLE_LIMITS = {
  tableNameMin: 3,
  tableNameMax: 63,
  columnNameMin: 1,
  columnNameMax: 63,
  descriptionMax: 500,
  // PostgreSQL allows 1,600 columns per table; far fewer keeps rows and forms usable.
  columnsMax: 500,
} as const;

/** IDENTIFIER_PATTERN is the shape of table and column names: a letter, then letters, digits or underscores. */
export const IDENTIFIER_PATTERN = /^[A-Za-z][A-Za-z0-9_]*$/;

/** ColumnDefinition is one column of a table schema. */
export interface ColumnDefinition {
  type: ColumnType;
  required: boolean;
  unique: boolean;
  /** A number column may point at the `id` of another table of the same account (or its own: a tree). */
  references?: ColumnReference;
  /** The column has an index of its own, for filters and orders on it (a unique column has one already). */
  indexed?: boolean;
  /** A text column the table opts in to search on: a full-text index for the fts filters (data-api.md). */
  search?: boolean;
  /**
   * The value a created record gets when it leaves the column out (an explicit null stays null, as in
   * PostgREST): a literal of the column's type, or `now` for a date or date_only column.
   */
  default?: ColumnDefault;
}

/** ColumnDefault is a column's default: a JSON literal of its type, or 'now' (dates). */
export type ColumnDefault = string | number | boolean | null | ColumnDefault[] | { [key: string]: ColumnDefault };

/** DEFAULT_NOW is the default of a date or date_only column that takes the time (or day, UTC) of the insert. */
export const DEFAULT_NOW = 'now';

/** COLUMN_DEFAULT_MAX is the longest a default may be, as JSON text: a default is a value, not a document. */
export const COLUMN_DEFAULT_MAX = 1000;

const ISO_DATE_TIME =
  /^\d{4}-\d{2}-\d{2}(?:[Tt ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?\s*(?:[Zz]|[+-]\d{2}(?::?\d{2})?)?)?$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** isCalendarDate tells whether 'YYYY-MM-DD…' starts with a day that exists (2025-02-30 does not). */
function isCalendarDate(text: string): boolean {
  const [y, m, d] = text.slice(0, 10).split('-').map(Number);
  if (y === undefined || m === undefined || d === undefined) return false;
  const date = new Date(Date.UTC(2000, m - 1, d));
  date.setUTCFullYear(y);
  return date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

function containsNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\0');
  if (Array.isArray(value)) return value.some(containsNul);
  if (value !== null && typeof value === 'object')
    return Object.entries(value).some(([key, v]) => key.includes('\0') || containsNul(v));
  return false;
}

/**
 * columnDefaultProblem says why a default does not fit a column type (the message of the `default` field), or
 * null when it does: a literal of the type (dates as ISO 8601 text, date_only as YYYY-MM-DD), or 'now' for dates.
 */
export function columnDefaultProblem(type: ColumnType, value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (containsNul(value)) return 'A default must not contain the NUL character (\\u0000)';
  if (JSON.stringify(value).length > COLUMN_DEFAULT_MAX)
    return `A default cannot be longer than ${COLUMN_DEFAULT_MAX} characters as JSON`;
  switch (type) {
    case 'text':
      return typeof value === 'string' ? null : 'The default of a text column must be text';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value)
        ? null
        : 'The default of a number column must be a number';
    case 'boolean':
      return typeof value === 'boolean' ? null : 'The default of a boolean column must be true or false';
    case 'date':
      return value === DEFAULT_NOW ||
        (typeof value === 'string' && ISO_DATE_TIME.test(value.trim()) && isCalendarDate(value.trim()))
        ? null
        : 'The default of a date column must be an ISO 8601 date or date-time, or "now"';
    case 'date_only':
      return value === DEFAULT_NOW || (typeof value === 'string' && ISO_DATE.test(value) && isCalendarDate(value))
        ? null
        : 'The default of a date_only column must be a date (YYYY-MM-DD) or "now"';
    case 'json':
      return null;
    case 'array':
      return Array.isArray(value) ? null : 'The default of an array column must be a JSON array';
  }
}

/** ON_DELETE_ACTIONS are what deleting a referenced row does to the rows pointing at it. */
export const ON_DELETE_ACTIONS = ['restrict', 'cascade', 'set null'] as const;
/** OnDeleteAction is one of ON_DELETE_ACTIONS. */
export type OnDeleteAction = (typeof ON_DELETE_ACTIONS)[number];

/** ColumnReference names the referenced table (by name, in the same account) and the delete behaviour. */
export interface ColumnReference {
  table: string;
  onDelete: OnDeleteAction;
  /**
   * The referenced table's column the console shows a referenced row by (absent: its first text column). Only
   * a display choice: a label naming no column of that table (dropped since) falls back the same way.
   */
  label?: string;
}

/**
 * SYSTEM_COLUMNS are the columns every user table has (DESIGN.md "Data"). A submitted schema may name one
 * of them only with exactly this definition (the console's create form starts with the `id` column); it then
 * stands for the system column, never for a user column.
 */
export const SYSTEM_COLUMNS: Readonly<Record<'id' | 'created_at' | 'updated_at', Readonly<ColumnDefinition>>> = {
  id: { type: 'number', required: true, unique: true },
  created_at: { type: 'date', required: true, unique: false },
  updated_at: { type: 'date', required: true, unique: false },
};

/** RESERVED_COLUMN_NAMES are the system columns' names; no user column may take one (any case). */
const RESERVED_COLUMN_NAMES: readonly string[] = Object.keys(SYSTEM_COLUMNS);

/** isSystemColumnName tells whether a name is a system column's, ignoring case. */
export function isSystemColumnName(name: string): boolean {
  return RESERVED_COLUMN_NAMES.includes(name.toLowerCase());
}

/**
 * ENGINE_COLUMN_NAMES are the hidden columns the database engines keep in every table: PostgreSQL's system
 * columns and SQLite's names for the rowid. PostgreSQL refuses a user column of such a name, and SQLite reads
 * one as the rowid, so a schema valid on one engine would fail or change meaning on the other; no user column
 * may take one. They are compared ignoring case, as SQLite compares names (PostgreSQL would take `CTID`
 * quoted, but Basalt's column names are already unique ignoring case). `_rowid_` cannot pass the name rule;
 * it is listed so the list reads complete.
 */
export const ENGINE_COLUMN_NAMES: readonly string[] = [
  'cmax',
  'cmin',
  'ctid',
  'tableoid',
  'xmax',
  'xmin',
  'oid',
  'rowid',
  '_rowid_',
];

const engineColumnNames = new Set(ENGINE_COLUMN_NAMES);

/** isEngineColumnName tells whether a name is one of ENGINE_COLUMN_NAMES, ignoring case. */
export function isEngineColumnName(name: string): boolean {
  return engineColumnNames.has(name.toLowerCase());
}

/** engineColumnMessage is the refusal for a column named like an engine's hidden column. */
export function engineColumnMessage(name: string): string {
  return `"${name}" is reserved by the database engines; choose another column name`;
}

/** isSystemColumnDefinition tells whether a column is exactly the system column of that (lower-case) name. */
export function isSystemColumnDefinition(name: string, definition: ColumnDefinition): boolean {
  const system = Object.entries(SYSTEM_COLUMNS).find(([n]) => n === name)?.[1];
  return (
    system !== undefined &&
    definition.type === system.type &&
    definition.required === system.required &&
    definition.unique === system.unique
  );
}

function describeSystemColumn(name: string): string {
  const system = Object.entries(SYSTEM_COLUMNS).find(([n]) => n === name.toLowerCase())?.[1];
  if (!system) return '';
  const flags = [system.required ? 'required' : '', system.unique ? 'unique' : ''].filter(Boolean).join(', ');
  return `${system.type}${flags ? `, ${flags}` : ''}`;
}

/** systemColumnMessage is the refusal for a schema that redefines a system column. */
export function systemColumnMessage(name: string): string {
  return `"${name}" is a system column (${describeSystemColumn(name)}) and cannot be defined or changed`;
}

/** findDuplicateName returns the first name that repeats an earlier one ignoring case, or null. */
export function findDuplicateName(names: Iterable<string>): string | null {
  const seen = new Set<string>();
  for (const name of names) {
    const key = name.toLowerCase();
    if (seen.has(key)) return name;
    seen.add(key);
  }
  return null;
}

/** tableNameSchema is a table's name: 3–63 letters, digits and underscores, starting with a letter, not reserved. */
export const tableNameSchema = z
  .string({ error: 'Table name is required' })
  .min(TABLE_LIMITS.tableNameMin, 'Table name must be at least 3 characters')
  .max(TABLE_LIMITS.tableNameMax, 'Table name cannot exceed 63 characters')
  .regex(IDENTIFIER_PATTERN, 'Table name must start with a letter and contain only letters, numbers and underscores')
  .refine((name) => !isReservedTableName(name), {
    error: (issue) => `"${String(issue.input)}" is a reserved name; choose another table name`,
  });

// The shape of a column name, without the engines' reserved names: what a rename's old name must have, so
// that a column named before those names were reserved can still be renamed away.
const columnNameShape = z
  .string({ error: 'Column name is required' })
  .min(TABLE_LIMITS.columnNameMin, 'Column name is required')
  .max(TABLE_LIMITS.columnNameMax, 'Column name cannot exceed 63 characters')
  .regex(IDENTIFIER_PATTERN, 'Column name must start with a letter and contain only letters, numbers and underscores');

/**
 * columnNameSchema is a column's name: 1–63 letters, digits and underscores, starting with a letter, and none
 * of the engines' hidden columns (ENGINE_COLUMN_NAMES).
 */
export const columnNameSchema = columnNameShape.refine((name) => !isEngineColumnName(name), {
  error: (issue) => engineColumnMessage(String(issue.input)),
});

/** columnReferenceSchema is a number column's `references`: a table of the account, and on delete (restrict). */
export const columnReferenceSchema = z.object(
  {
    table: z
      .string({ error: 'A reference names a table' })
      .min(1, 'A reference names a table')
      .max(TABLE_LIMITS.tableNameMax, `Table name cannot exceed ${TABLE_LIMITS.tableNameMax} characters`)
      .regex(IDENTIFIER_PATTERN, 'A reference names a table: letters, digits and underscores'),
    onDelete: z
      .enum(ON_DELETE_ACTIONS, { error: 'On delete must be one of: restrict, cascade, set null' })
      .default('restrict'),
    label: z
      .string({ error: 'A label names a column of the referenced table' })
      .max(TABLE_LIMITS.columnNameMax, 'A label names a column of the referenced table')
      .regex(IDENTIFIER_PATTERN, 'A label names a column of the referenced table')
      .optional(),
  },
  { error: 'References must be an object: {table, onDelete}' },
);

/** columnDefinitionSchema is a column's type and flags; the flags default to false. */
export const columnDefinitionSchema = z
  .object({
    type: columnTypeSchema,
    required: z.boolean({ error: 'Required must be true or false' }).default(false),
    unique: z.boolean({ error: 'Unique must be true or false' }).default(false),
    references: columnReferenceSchema.optional(),
    indexed: z.boolean({ error: 'Indexed must be true or false' }).optional(),
    search: z.boolean({ error: 'Searchable must be true or false' }).optional(),
    default: z.json({ error: 'A default must be a JSON value' }).optional(),
  })
  .refine((column) => column.references === undefined || column.type === 'number', {
    message: 'Only a number column can reference another table',
    path: ['references'],
  })
  .refine((column) => !column.indexed || (column.type !== 'json' && column.type !== 'array'), {
    message: 'A json or array column cannot be indexed',
    path: ['indexed'],
  })
  .refine((column) => !column.search || column.type === 'text', {
    message: 'Only a text column can be searchable',
    path: ['search'],
  })
  .superRefine((column, ctx) => {
    const problem = columnDefaultProblem(column.type, column.default);
    if (problem !== null) ctx.addIssue({ code: 'custom', message: problem, path: ['default'] });
  });

/**
 * tableSchemaSchema maps column names to definitions. Names follow columnNameSchema, are unique ignoring case,
 * and a system column's name is accepted only with its exact system definition (see SYSTEM_COLUMNS).
 */
export const tableSchemaSchema = z
  .record(z.string(), columnDefinitionSchema, { error: 'Schema must be an object of columns' })
  .superRefine((schema, ctx) => {
    const names = Object.keys(schema);
    if (names.length > TABLE_LIMITS.columnsMax) {
      ctx.addIssue({ code: 'custom', message: `A table can have at most ${TABLE_LIMITS.columnsMax} columns` });
    }
    for (const name of names) {
      const checked = columnNameSchema.safeParse(name);
      if (!checked.success) {
        for (const issue of checked.error.issues)
          ctx.addIssue({ code: 'custom', message: issue.message, path: [name] });
        continue;
      }
      const definition = schema[name];
      if (definition && isSystemColumnName(name) && !isSystemColumnDefinition(name, definition)) {
        ctx.addIssue({ code: 'custom', message: systemColumnMessage(name), path: [name] });
      }
    }
    const duplicate = findDuplicateName(names);
    if (duplicate !== null) {
      ctx.addIssue({
        code: 'custom',
        message: `Column names must be unique: "${duplicate}" is used twice (names ignore case)`,
        path: [duplicate],
      });
    }
  });
/** TableSchema maps each column name to its definition, in column order. */
export type TableSchema = Record<string, ColumnDefinition>;

/** tableDescriptionSchema is an optional description of at most 500 characters. */
export const tableDescriptionSchema = z
  .string({ error: 'Description must be text' })
  .max(TABLE_LIMITS.descriptionMax, 'Description cannot exceed 500 characters')
  .nullish();

/** createTableSchema is what creating a table accepts (POST /api/tables, /rest/v1/tables insert). */
export const createTableSchema = z.object({
  name: tableNameSchema,
  description: tableDescriptionSchema,
  schema: tableSchemaSchema.refine((schema) => Object.keys(schema).length > 0, 'At least one column is required'),
  /** Who of the app's users may read and write the rows (default: nobody but the owner). */
  access: tableAccessSchema.optional(),
});
/** CreateTableInput is what a client sends to create a table (flags may be left out). */
export type CreateTableInput = z.input<typeof createTableSchema>;
/** CreateTableRequest is a validated create request, flags filled in. */
export type CreateTableRequest = z.output<typeof createTableSchema>;

/**
 * updateTableSchema is a change of an existing table: a new name or description, and/or the complete new
 * schema with explicit column renames (old name → new name); a renamed column is never guessed.
 */
export const updateTableSchema = z.object({
  name: tableNameSchema.optional(),
  description: tableDescriptionSchema,
  schema: tableSchemaSchema.optional(),
  renames: z
    .record(columnNameShape, columnNameSchema, { error: 'Renames must map old to new column names' })
    .optional(),
  /** The table's new access rules, complete. */
  access: tableAccessSchema.optional(),
});
/** UpdateTableInput is what a client sends to change a table. */
export type UpdateTableInput = z.input<typeof updateTableSchema>;
/** UpdateTableRequest is a validated change request. */
export type UpdateTableRequest = z.output<typeof updateTableSchema>;

/** userColumnsOf drops the system columns from a validated schema, leaving the user's columns in order. */
export function userColumnsOf(schema: TableSchema): TableSchema {
  return Object.fromEntries(Object.entries(schema).filter(([name]) => !isSystemColumnName(name)));
}
