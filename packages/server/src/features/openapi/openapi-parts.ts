import { type ColumnDefinition, DEFAULT_NOW, SYSTEM_COLUMNS, type TableAccess, type TableSchema } from '@basalt/shared';
import type { JsonSchema, JsonValue } from '../../db/column-types/column-type.js';
import { columnTypeOf } from '../../db/column-types/registry.js';
import { LOGIC_KEYS, PAGING_KEYS } from '../public-api/public-api.query.js';

// The pieces of an account's OpenAPI document: JSON references, and the schemas of a table's records, request
// bodies and filter parameters, made from its columns' types.

/** OpenApiTable is what the document needs of a table; system columns in `schema` are skipped. */
export interface OpenApiTable {
  name: string;
  description: string | null;
  schema: TableSchema;
  /** The table's access rules for the app's users (absent: the default, nobody). */
  access?: TableAccess;
}

/** OpenApiDocument is a generated document: plain JSON. */
export type OpenApiDocument = { [key: string]: JsonValue };

export type JsonObject = { [key: string]: JsonValue };

export const OPENAPI_VERSION = '3.1.0';
export const SECURITY_SCHEME = 'apiKey';
export const ERROR_SCHEMA = 'api.Error';
export const DELETE_RESULT_SCHEMA = 'api.DeleteResult';
const SYSTEM_COLUMN_NAMES = new Set(Object.keys(SYSTEM_COLUMNS));

export const schemaRef = (name: string): JsonObject => ({ $ref: `#/components/schemas/${name}` });
export const componentRef = (kind: 'parameters' | 'responses' | 'headers', name: string): JsonObject => ({
  $ref: `#/components/${kind}/${name}`,
});
export const json = (schema: JsonObject): JsonObject => ({ 'application/json': { schema } });
export const capitalized = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);

/** userColumnsOf lists a table's own columns in order, without the system columns. */
export function userColumnsOf(schema: TableSchema): Array<[string, ColumnDefinition]> {
  return Object.entries(schema).filter(([name]) => !SYSTEM_COLUMN_NAMES.has(name));
}

// A column that may hold NULL: `type: [t, "null"]`. A schema without a type (json) admits null already.
export function nullable(schema: JsonObject): JsonObject {
  const { type } = schema;
  if (typeof type === 'string') return { ...schema, type: [type, 'null'] };
  return schema;
}

/** hasDefault tells whether a column has a default a create fills in. */
export const hasDefault = (definition: ColumnDefinition): boolean =>
  definition.default !== undefined && definition.default !== null;

export function columnSchema(definition: ColumnDefinition): JsonObject {
  const base: JsonSchema = columnTypeOf(definition.type).jsonSchema;
  const notes = [
    `${definition.type} column`,
    typeof base.description === 'string' ? base.description : null,
    definition.required ? 'required' : null,
    definition.unique ? 'unique: no two records share a value' : null,
    hasDefault(definition) ? `default ${JSON.stringify(definition.default)} when left out of a create` : null,
  ].filter((note): note is string => note !== null);
  const schema: JsonObject = {
    ...base,
    description: `${notes.join('; ')}.`,
    // 'now' is the time of the insert, not a literal a client could send back.
    ...(hasDefault(definition) && definition.default !== DEFAULT_NOW ? { default: definition.default ?? null } : {}),
  };
  return definition.required ? schema : nullable(schema);
}

export const idSchema = (description: string): JsonObject => ({ type: 'integer', minimum: 1, description });
export const timestampSchema = (description: string): JsonObject => ({
  type: 'string',
  format: 'date-time',
  description,
});

/** recordSchema is a record as the API returns it: every column present, NULL where it has no value. */
export function recordSchema(table: OpenApiTable): JsonObject {
  const columns = userColumnsOf(table.schema);
  return {
    type: 'object',
    title: table.name,
    description: table.description ?? `A record of the table ${table.name}.`,
    properties: {
      id: idSchema('The record id, numbered by the database.'),
      ...Object.fromEntries(columns.map(([name, definition]) => [name, columnSchema(definition)])),
      created_at: timestampSchema('When the record was created (set by the server).'),
      updated_at: timestampSchema('When the record was last changed (set by the server).'),
    },
    required: ['id', ...columns.map(([name]) => name), 'created_at', 'updated_at'],
    additionalProperties: false,
  };
}

/**
 * inputSchema is a request body: the table's columns (an unknown one is refused). POST and PUT need every
 * required column (PUT sets the columns left out to NULL); PATCH changes only the columns sent.
 */
export function inputSchema(table: OpenApiTable, { partial }: { partial: boolean }): JsonObject {
  const columns = userColumnsOf(table.schema);
  // A required column with a default may be left out of a create: it takes the default.
  const required = columns
    .filter(([, definition]) => definition.required && !hasDefault(definition))
    .map(([name]) => name);
  const id: JsonObject = partial
    ? {}
    : { id: idSchema('Create only: the new record id (else the next free one). PUT and PATCH ignore it.') };
  return {
    type: 'object',
    description: partial
      ? `The columns of ${table.name} to change; the others keep their values.`
      : `A record of ${table.name}. id, created_at and updated_at are set by the server.`,
    properties: {
      ...id,
      ...Object.fromEntries(columns.map(([name, definition]) => [name, columnSchema(definition)])),
    },
    ...(partial || required.length === 0 ? {} : { required }),
    additionalProperties: false,
  };
}

/** everyColumnOf lists the names of a table's columns as records have them: id, its own, the timestamps. */
export function everyColumnOf(table: OpenApiTable): string[] {
  return ['id', ...userColumnsOf(table.schema).map(([name]) => name), 'created_at', 'updated_at'];
}

// Each column is a query parameter of its own name that filters by it, except where a paging or logic
// parameter of the same name takes precedence (public-api.query.ts reads those first).
export function filterParameters(table: OpenApiTable): JsonObject[] {
  return everyColumnOf(table)
    .filter((name) => !PAGING_KEYS.has(name) && !LOGIC_KEYS.has(name))
    .map((name) => ({
      name,
      in: 'query',
      required: false,
      description:
        `Filter on ${name}: operator.value, as PostgREST writes it — eq, neq, gt, gte, lt, lte, like, ilike ` +
        '(* is the wildcard), match, imatch, in.(a,b), is.null|true|false, cs, cd, ov (json and array), ' +
        'each negated by a not. prefix. Several filters all apply.',
      schema: { type: 'string' },
      examples: { equals: { value: 'eq.42' } },
    }));
}

export function errorResponses(statuses: number[]): JsonObject {
  const names: Record<number, string> = {
    400: 'BadRequest',
    401: 'Unauthorized',
    403: 'Forbidden',
    404: 'NotFound',
    409: 'Conflict',
    429: 'RateLimited',
    500: 'ServerError',
  };
  return Object.fromEntries(statuses.map((status) => [String(status), componentRef('responses', names[status] ?? '')]));
}
