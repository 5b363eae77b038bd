import {
  type ColumnDefault,
  type ColumnDefinition,
  type ColumnType,
  type CreateTableRequest,
  columnDefaultProblem,
  columnNameSchema,
  columnTypeSchema,
  isSystemColumnName,
  ON_DELETE_ACTIONS,
  type OnDeleteAction,
  SYSTEM_COLUMNS,
  systemColumnMessage,
  type TableResponse,
  type TableSchema,
  tableDescriptionSchema,
  tableNameSchema,
  type UpdateTableInput,
} from '@basalt/shared';
import { z } from 'zod';

// A table as the create form and the schema editor edit it: a name, a description and an ordered list of
// columns. Both forms validate with tableDraftSchema, built from the shared table schemas so that the console
// shows the server's own messages; the draft then becomes a create request or a change request.

/** ColumnDraft is one column row of a form. `originalName` is the column's name in the saved table (null: new). */
export interface ColumnDraft {
  originalName: string | null;
  /** system marks the `id` column every table has: shown, never edited or removed. */
  system: boolean;
  name: string;
  type: ColumnType;
  required: boolean;
  unique: boolean;
  /** The column has an index of its own (not for json and array columns, whose choice is dropped). */
  indexed?: boolean;
  /** A text column the table opts in to search on (a full-text index; dropped when the type changes). */
  search?: boolean;
  /** The table a number column references ('' for none), and what deleting a referenced row does. */
  referencesTable: string;
  onDelete: OnDeleteAction;
  /** The referenced table's column its rows are shown by ('' or absent: its first text column). */
  referencesLabel?: string;
  /** The column's default as typed ('' or absent: none); see defaultFromText. */
  defaultText?: string;
}

/** TableDraft is the value of the create-table form and of the schema editor. */
export interface TableDraft {
  name: string;
  description: string;
  columns: ColumnDraft[];
}

/** duplicateColumnMessage is the shared schema's refusal of a repeated column name. */
export function duplicateColumnMessage(name: string): string {
  return `Column names must be unique: "${name}" is used twice (names ignore case)`;
}

const columnDraftSchema = z.object({
  originalName: z.string().nullable(),
  system: z.boolean(),
  name: columnNameSchema,
  type: columnTypeSchema,
  required: z.boolean(),
  unique: z.boolean(),
  indexed: z.boolean().optional(),
  search: z.boolean().optional(),
  referencesTable: z.string(),
  onDelete: z.enum(ON_DELETE_ACTIONS),
  referencesLabel: z.string().optional(),
  defaultText: z.string().optional(),
});

/** tableDraftSchema validates a draft with the messages and the shared table rules. */
export const tableDraftSchema = z
  .object({
    name: tableNameSchema,
    // The form keeps the text as typed ('' for none); the shared rule's message still applies.
    description: tableDescriptionSchema.unwrap().unwrap(),
    columns: z.array(columnDraftSchema).min(1, 'At least one column is required'),
  })
  .superRefine((draft, ctx) => {
    const seen = new Set<string>();
    draft.columns.forEach((column, index) => {
      const key = column.name.toLowerCase();
      if (!key) return;
      if (!column.system && isSystemColumnName(column.name)) {
        ctx.addIssue({ code: 'custom', path: ['columns', index, 'name'], message: systemColumnMessage(column.name) });
      } else if (seen.has(key)) {
        ctx.addIssue({
          code: 'custom',
          path: ['columns', index, 'name'],
          message: duplicateColumnMessage(column.name),
        });
      }
      seen.add(key);
      const problem = defaultTextProblem(column.type, column.defaultText ?? '');
      if (!column.system && problem !== null) {
        ctx.addIssue({ code: 'custom', path: ['columns', index, 'defaultText'], message: problem });
      }
    });
  });

/**
 * defaultFromText reads a typed default as a value of the column's type: numbers and booleans as such, json and
 * array columns as JSON, the rest as the text itself. Undefined for none ('' typed).
 */
export function defaultFromText(type: ColumnType, text: string): ColumnDefault | undefined {
  if (text === '') return undefined;
  const trimmed = text.trim();
  switch (type) {
    case 'number':
      return trimmed !== '' && Number.isFinite(Number(trimmed)) ? Number(trimmed) : text;
    case 'boolean':
      return trimmed === 'true' ? true : trimmed === 'false' ? false : text;
    case 'json':
    case 'array':
      try {
        return JSON.parse(text) as ColumnDefault;
      } catch {
        return text;
      }
    default:
      return type === 'text' ? text : trimmed;
  }
}

/** defaultToText is a saved default as the form shows it (the inverse of defaultFromText). */
export function defaultToText(type: ColumnType, value: ColumnDefault | undefined): string {
  if (value === undefined || value === null) return '';
  if (type === 'json' || type === 'array') return JSON.stringify(value);
  return String(value);
}

// The shared rule's message for a typed default; json text that does not parse is refused here, as the record
// form refuses it (it would otherwise become a JSON string).
function defaultTextProblem(type: ColumnType, text: string): string | null {
  if (text === '') return null;
  if (type === 'json' || type === 'array') {
    try {
      JSON.parse(text);
    } catch {
      return `The default of a ${type} column must be valid JSON`;
    }
  }
  return columnDefaultProblem(type, defaultFromText(type, text));
}

const NO_REFERENCE = { referencesTable: '', onDelete: 'restrict' } as const;

/** idColumnDraft is the locked first row: the `id` system column (number, required, unique). */
export function idColumnDraft(): ColumnDraft {
  return { originalName: 'id', system: true, name: 'id', ...SYSTEM_COLUMNS.id, type: 'number', ...NO_REFERENCE };
}

/** newColumnDraft is an empty text column. */
export function newColumnDraft(): ColumnDraft {
  return { originalName: null, system: false, name: '', type: 'text', required: false, unique: false, ...NO_REFERENCE };
}

/** emptyTableDraft is a new table: the id column and one empty column to fill in. */
export function emptyTableDraft(): TableDraft {
  return { name: '', description: '', columns: [idColumnDraft(), newColumnDraft()] };
}

/** draftFromTable is a saved table as the schema editor starts from it. */
export function draftFromTable(table: TableResponse): TableDraft {
  const columns = Object.entries(table.schema).map(
    ([name, definition]): ColumnDraft =>
      isSystemColumnName(name)
        ? { ...idColumnDraft(), originalName: name, name, type: definition.type }
        : {
            originalName: name,
            system: false,
            name,
            type: definition.type,
            required: definition.required,
            unique: definition.unique,
            indexed: definition.indexed ?? false,
            search: definition.search ?? false,
            referencesTable: definition.references?.table ?? '',
            onDelete: definition.references?.onDelete ?? 'restrict',
            referencesLabel: definition.references?.label ?? '',
            defaultText: defaultToText(definition.type, definition.default),
          },
  );
  if (!columns.some((c) => c.system)) columns.unshift(idColumnDraft());
  return { name: table.name, description: table.description ?? '', columns };
}

function definitionOf(c: ColumnDraft): ColumnDefinition {
  const definition: ColumnDefinition = { type: c.type, required: c.required, unique: c.unique };
  if (c.indexed && canIndex(c.type)) definition.indexed = true;
  if (c.search && c.type === 'text' && !c.system) definition.search = true;
  const value = c.system ? undefined : defaultFromText(c.type, c.defaultText ?? '');
  if (value !== undefined) definition.default = value;
  // Only a number column references; the choice is dropped when the type changes.
  if (c.type === 'number' && !c.system && c.referencesTable !== '') {
    definition.references = { table: c.referencesTable, onDelete: c.onDelete };
    if (c.referencesLabel) definition.references.label = c.referencesLabel;
  }
  return definition;
}

/** canIndex tells whether a column of this type may have an index (json and array may not). */
export function canIndex(type: ColumnType): boolean {
  return type !== 'json' && type !== 'array';
}

function schemaOf(columns: readonly ColumnDraft[]): TableSchema {
  return Object.fromEntries(columns.map((c) => [c.name, definitionOf(c)]));
}

const sameReference = (x: ColumnDefinition, y: ColumnDefinition) =>
  (x.references?.table ?? '') === (y.references?.table ?? '') &&
  (x.references?.onDelete ?? '') === (y.references?.onDelete ?? '') &&
  (x.references?.label ?? '') === (y.references?.label ?? '');

const normalisedDescription = (text: string | null | undefined) => (text ?? '').trim() || null;

/** toCreateTableRequest turns a valid draft into what creating a table sends. */
export function toCreateTableRequest(draft: TableDraft): CreateTableRequest {
  return { name: draft.name, description: normalisedDescription(draft.description), schema: schemaOf(draft.columns) };
}

/** renamesOf maps each kept column's saved name to its new name, for the columns whose name changed. */
export function renamesOf(draft: TableDraft): Record<string, string> {
  return Object.fromEntries(
    draft.columns
      .filter((c) => !c.system && c.originalName !== null && c.originalName !== c.name)
      .map((c) => [c.originalName, c.name]),
  );
}

function sameSchema(a: TableSchema, b: TableSchema): boolean {
  const keysA = Object.keys(a);
  const keysB = Object.keys(b);
  if (keysA.length !== keysB.length) return false;
  return keysA.every((name, i) => {
    const x = a[name];
    const y = b[keysB[i] ?? ''];
    return (
      keysB[i] === name &&
      x &&
      y &&
      x.type === y.type &&
      x.required === y.required &&
      x.unique === y.unique &&
      (x.indexed ?? false) === (y.indexed ?? false) &&
      (x.search ?? false) === (y.search ?? false) &&
      JSON.stringify(x.default ?? null) === JSON.stringify(y.default ?? null) &&
      sameReference(x, y)
    );
  });
}

/**
 * toTableChange is the change request from a saved table to a draft: only what differs (name, description,
 * the complete new schema with explicit renames). Null when nothing differs.
 */
export function toTableChange(table: TableResponse, draft: TableDraft): UpdateTableInput | null {
  const change: UpdateTableInput = {};
  if (draft.name !== table.name) change.name = draft.name;
  const description = normalisedDescription(draft.description);
  if (description !== (table.description ?? null)) change.description = description;
  const schema = schemaOf(draft.columns);
  const renames = renamesOf(draft);
  if (!sameSchema(schema, table.schema) || Object.keys(renames).length > 0) {
    change.schema = schema;
    if (Object.keys(renames).length > 0) change.renames = renames;
  }
  return Object.keys(change).length === 0 ? null : change;
}
