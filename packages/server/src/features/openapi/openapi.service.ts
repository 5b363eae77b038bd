import {
  BASALT_VERSION,
  type ColumnDefinition,
  describeAccess,
  describeRule,
  SITE_NAME,
  SYSTEM_COLUMNS,
  type TableAccess,
  type TableSchema,
} from '@basalt/shared';
import type { JsonSchema, JsonValue } from '../../db/column-types/column-type.js';
import { columnTypeOf } from '../../db/column-types/registry.js';
import { LOGIC_KEYS, PAGING_KEYS, PUBLIC_LIST_LIMITS } from '../public-api/public-api.query.js';

// The OpenAPI 3.1 document of one account's public record API (features/public-api), generated from its tables:
// what public-api.routes.ts serves, as it serves it. Pure: the same tables give the same document, so it is
// unit-tested without a server. Names in `components.schemas`: a table's record is its own name (`orders`), its
// request bodies `orders.input` (POST, PUT) and `orders.patch` (PATCH). Shared ones start with `api.`: no table
// can be named `api` (RESERVED_TABLE_NAMES) and table names have no dot, so no two names ever clash.

/** OpenApiTable is what the document needs of a table; system columns in `schema` are skipped. */
export interface OpenApiTable {
  name: string;
  description: string | null;
  schema: TableSchema;
  /** The table's access rules for the app's users (absent: the default, nobody). */
  access?: TableAccess;
}

// The rules are for the app's callers on /rest/v1 (an API key is never limited by them): each tag carries them as
// `x-basalt-access`, the rules and the same sentences the console's Access tab shows.
function accessExtension(access: TableAccess | undefined): JsonObject {
  if (!access) return {};
  const operations = ['select', 'insert', 'update', 'delete'] as const;
  return {
    'x-basalt-access': {
      select: access.select,
      insert: access.insert,
      update: access.update,
      delete: access.delete,
      ownerColumn: access.ownerColumn ?? null,
      summary: describeAccess(access),
      rules: operations.map((operation) => describeRule(operation, access[operation])),
    },
  };
}

/** OpenApiDocument is a generated document: plain JSON. */
export type OpenApiDocument = { [key: string]: JsonValue };

type JsonObject = { [key: string]: JsonValue };

const OPENAPI_VERSION = '3.1.0';
const SECURITY_SCHEME = 'apiKey';
const ERROR_SCHEMA = 'api.Error';
const DELETE_RESULT_SCHEMA = 'api.DeleteResult';
const SYSTEM_COLUMN_NAMES = new Set(Object.keys(SYSTEM_COLUMNS));

const schemaRef = (name: string): JsonObject => ({ $ref: `#/components/schemas/${name}` });
const componentRef = (kind: 'parameters' | 'responses' | 'headers', name: string): JsonObject => ({
  $ref: `#/components/${kind}/${name}`,
});
const json = (schema: JsonObject): JsonObject => ({ 'application/json': { schema } });
const capitalized = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);

/** userColumnsOf lists a table's own columns in order, without the system columns. */
function userColumnsOf(schema: TableSchema): Array<[string, ColumnDefinition]> {
  return Object.entries(schema).filter(([name]) => !SYSTEM_COLUMN_NAMES.has(name));
}

// A column that may hold NULL: `type: [t, "null"]`. A schema without a type (json) admits null already.
function nullable(schema: JsonObject): JsonObject {
  const { type } = schema;
  if (typeof type === 'string') return { ...schema, type: [type, 'null'] };
  return schema;
}

function columnSchema(definition: ColumnDefinition): JsonObject {
  const base: JsonSchema = columnTypeOf(definition.type).jsonSchema;
  const notes = [
    `${definition.type} column`,
    typeof base.description === 'string' ? base.description : null,
    definition.required ? 'required' : null,
    definition.unique ? 'unique: no two records share a value' : null,
  ].filter((note): note is string => note !== null);
  const schema: JsonObject = { ...base, description: `${notes.join('; ')}.` };
  return definition.required ? schema : nullable(schema);
}

const idSchema = (description: string): JsonObject => ({ type: 'integer', minimum: 1, description });
const timestampSchema = (description: string): JsonObject => ({ type: 'string', format: 'date-time', description });

/** recordSchema is a record as the API returns it: every column present, NULL where it has no value. */
function recordSchema(table: OpenApiTable): JsonObject {
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
function inputSchema(table: OpenApiTable, { partial }: { partial: boolean }): JsonObject {
  const columns = userColumnsOf(table.schema);
  const required = columns.filter(([, definition]) => definition.required).map(([name]) => name);
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
function everyColumnOf(table: OpenApiTable): string[] {
  return ['id', ...userColumnsOf(table.schema).map(([name]) => name), 'created_at', 'updated_at'];
}

// Each column is a query parameter of its own name that filters by it, except where a paging or logic
// parameter of the same name takes precedence (public-api.query.ts reads those first).
function filterParameters(table: OpenApiTable): JsonObject[] {
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

function errorResponses(statuses: number[]): JsonObject {
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

function tablePaths(table: OpenApiTable): JsonObject {
  const { name } = table;
  const Name = capitalized(name);
  const tags = [name];
  const record = schemaRef(name);
  const body = (schema: string, description: string): JsonObject => ({
    required: true,
    description,
    content: json(schemaRef(schema)),
  });
  const oneRecord = (description: string): JsonObject => ({ description, content: json(record) });
  return {
    [`/api/table/${name}`]: {
      get: {
        operationId: `list${Name}`,
        tags,
        summary: `List records of ${name}`,
        description:
          'One page of records, filtered by any column and ordered by one. The headers tell the total count and the page.',
        parameters: [
          componentRef('parameters', 'limit'),
          componentRef('parameters', 'offset'),
          {
            name: 'orderBy',
            in: 'query',
            required: false,
            description: 'The column to order by; records with equal values follow their id.',
            schema: { type: 'string', enum: everyColumnOf(table), default: 'id' },
          },
          componentRef('parameters', 'order'),
          ...filterParameters(table),
          componentRef('parameters', 'or'),
          componentRef('parameters', 'and'),
        ],
        responses: {
          '200': {
            description: 'The records of the page (an empty array past the end).',
            headers: {
              'X-Total-Count': componentRef('headers', 'X-Total-Count'),
              'X-Page-Limit': componentRef('headers', 'X-Page-Limit'),
              'X-Page-Offset': componentRef('headers', 'X-Page-Offset'),
            },
            content: json({ type: 'array', items: record }),
          },
          ...errorResponses([400, 401, 403, 404, 429, 500]),
        },
      },
      post: {
        operationId: `create${Name}`,
        tags,
        summary: `Create a record in ${name}`,
        requestBody: body(`${name}.input`, 'The new record: a JSON object of the table columns.'),
        responses: {
          '201': {
            ...oneRecord('The created record, as stored.'),
            headers: { Location: componentRef('headers', 'Location') },
          },
          ...errorResponses([400, 401, 403, 404, 409, 429, 500]),
        },
      },
    },
    [`/api/table/${name}/{id}`]: {
      parameters: [componentRef('parameters', 'recordId')],
      get: {
        operationId: `get${Name}`,
        tags,
        summary: `Get one record of ${name}`,
        responses: { '200': oneRecord('The record.'), ...errorResponses([401, 403, 404, 429, 500]) },
      },
      put: {
        operationId: `replace${Name}`,
        tags,
        summary: `Replace a record of ${name}`,
        description: 'Sets every column: a column left out of the body becomes NULL (refused for a required one).',
        requestBody: body(`${name}.input`, 'The whole record.'),
        responses: {
          '200': oneRecord('The record as it now is.'),
          ...errorResponses([400, 401, 403, 404, 409, 429, 500]),
        },
      },
      patch: {
        operationId: `update${Name}`,
        tags,
        summary: `Update columns of a record of ${name}`,
        description: 'Changes the columns sent; the others keep their values.',
        requestBody: body(`${name}.patch`, 'The columns to change.'),
        responses: {
          '200': oneRecord('The record as it now is.'),
          ...errorResponses([400, 401, 403, 404, 409, 429, 500]),
        },
      },
      delete: {
        operationId: `delete${Name}`,
        tags,
        summary: `Delete a record of ${name}`,
        responses: {
          '200': { description: 'The record was deleted.', content: json(schemaRef(DELETE_RESULT_SCHEMA)) },
          ...errorResponses([401, 403, 404, 429, 500]),
        },
      },
    },
  };
}

const errorBody = (description: string, extra: JsonObject = {}): JsonObject => ({
  description,
  ...extra,
  content: json(schemaRef(ERROR_SCHEMA)),
});

const intHeader = (description: string): JsonObject => ({ description, schema: { type: 'integer', minimum: 0 } });

const queryParameter = (name: string, description: string, schema: JsonObject): JsonObject => ({
  name,
  in: 'query',
  required: false,
  description,
  schema,
});

// What every account's document shares: parameters, headers, error responses, the error and delete bodies.
function sharedComponents(): JsonObject {
  return {
    parameters: {
      limit: queryParameter(
        'limit',
        `How many records to return: ${PUBLIC_LIST_LIMITS.defaultLimit} by default, at most ` +
          `${PUBLIC_LIST_LIMITS.maxLimit} (a larger value is capped). 0 returns none and still counts them.`,
        { type: 'integer', minimum: 0, default: PUBLIC_LIST_LIMITS.defaultLimit },
      ),
      offset: queryParameter('offset', 'How many records to skip.', { type: 'integer', minimum: 0, default: 0 }),
      order: queryParameter('order', 'The direction of orderBy (any case).', {
        type: 'string',
        enum: ['asc', 'desc'],
        default: 'asc',
      }),
      or: queryParameter('or', 'Records matching any of several filters, such as (qty.gt.10,name.eq.pen).', {
        type: 'string',
      }),
      and: queryParameter('and', 'Records matching all of several filters, such as (qty.gt.10,qty.lt.20).', {
        type: 'string',
      }),
      recordId: {
        name: 'id',
        in: 'path',
        required: true,
        description: 'The record id.',
        schema: { type: 'integer', minimum: 1 },
      },
    },
    headers: {
      'X-Total-Count': intHeader('How many records match the filters, across every page.'),
      'X-Page-Limit': intHeader('The limit applied to this page.'),
      'X-Page-Offset': intHeader('The offset of this page.'),
      Location: { description: 'The URL of the new record.', schema: { type: 'string' } },
      'Retry-After': intHeader('Seconds to wait before trying again.'),
      'WWW-Authenticate': { description: 'Bearer', schema: { type: 'string' } },
    },
    responses: {
      BadRequest: errorBody(
        'The body or the query is not valid: malformed JSON, an unknown column, a value of the wrong type, a ' +
          'missing required column, or a malformed filter. details maps each bad column to its messages.',
      ),
      Unauthorized: errorBody('Missing or invalid API key.', {
        headers: { 'WWW-Authenticate': componentRef('headers', 'WWW-Authenticate') },
      }),
      Forbidden: errorBody('The credentials cannot use this API (the service key has no account).'),
      NotFound: errorBody('No table of this name in the account, or no record with this id.'),
      Conflict: errorBody('A unique column already holds this value.'),
      RateLimited: errorBody('Too many requests with this key: wait as long as Retry-After says.', {
        headers: { 'Retry-After': componentRef('headers', 'Retry-After') },
      }),
      ServerError: errorBody('Something went wrong on the server.'),
    },
  };
}

const sharedSchemas: JsonObject = {
  [ERROR_SCHEMA]: {
    type: 'object',
    description: 'Every error of this API.',
    properties: {
      error: {
        type: 'object',
        properties: {
          code: { type: 'string', description: 'What went wrong, upper case: TABLE_NOT_FOUND, MISSING_FIELD, …' },
          message: { type: 'string', description: 'A sentence for a person.' },
          details: {
            description: 'Per-column messages ({column: [messages]}), other facts, or null.',
            anyOf: [
              { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
              { type: 'object' },
              { type: 'string' },
              { type: 'null' },
            ],
          },
        },
        required: ['code', 'message', 'details'],
      },
    },
    required: ['error'],
  },
  [DELETE_RESULT_SCHEMA]: {
    type: 'object',
    properties: {
      success: { type: 'boolean', const: true },
      message: { type: 'string', examples: ['Record deleted successfully'] },
    },
    required: ['success', 'message'],
  },
};

/**
 * buildOpenApiDocument describes the public record API of an account with these tables, served at
 * `serverUrl`: for each table, its list, create, get, replace, update and delete operations and the schemas
 * of its records and request bodies. Tables come out sorted by name.
 */
export function buildOpenApiDocument(tables: OpenApiTable[], options: { serverUrl: string }): OpenApiDocument {
  const sorted = [...tables].sort((a, b) => a.name.localeCompare(b.name, 'en'));
  const schemas: JsonObject = {};
  const paths: JsonObject = {};
  for (const table of sorted) {
    schemas[table.name] = recordSchema(table);
    schemas[`${table.name}.input`] = inputSchema(table, { partial: false });
    schemas[`${table.name}.patch`] = inputSchema(table, { partial: true });
    Object.assign(paths, tablePaths(table));
  }
  return {
    openapi: OPENAPI_VERSION,
    info: {
      title: `${SITE_NAME} record API`,
      version: BASALT_VERSION,
      description:
        'The REST endpoints of your tables. Authenticate with an API key from the console (API page) as ' +
        '`Authorization: Bearer <key>`; a key grants full access to its account. Every table is also reachable ' +
        'at the short form /api/{table}. Errors are {error: {code, message, details}}. The users of your app reach ' +
        "the same tables through /rest/v1 with the app keys, under each table's access rules (x-basalt-access).",
    },
    servers: [{ url: options.serverUrl }],
    security: [{ [SECURITY_SCHEME]: [] }],
    tags: sorted.map((table) => ({
      name: table.name,
      ...(table.description ? { description: table.description } : {}),
      ...accessExtension(table.access),
    })),
    paths,
    components: {
      schemas: { ...sharedSchemas, ...schemas },
      ...sharedComponents(),
      securitySchemes: {
        [SECURITY_SCHEME]: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'API key',
          description: 'An API key (bsk_…) created on the API page of the console.',
        },
      },
    },
  };
}
