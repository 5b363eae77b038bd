import type { Route } from '../../http/routes/route.js';
import {
  capitalized,
  componentRef,
  DELETE_RESULT_SCHEMA,
  errorResponses,
  everyColumnOf,
  filterParameters,
  type JsonObject,
  json,
  type OpenApiTable,
  schemaRef,
} from './openapi-parts.js';

// A table's paths in the document are the public API's routes of the route table, as mounted: each route of
// `/api/table/:name` names the operation it is (`docs.operation`), described here for one table. A route the table
// drops leaves the document with it; one that names no operation known here is listed with its summary alone.

/** PublicOperation names an operation of the public record API. */
export type PublicOperation = 'list' | 'create' | 'get' | 'replace' | 'update' | 'delete';

const PUBLIC_PREFIX = '/api/table/:name';

function shared(table: OpenApiTable) {
  const { name } = table;
  const record = schemaRef(name);
  return {
    name,
    Name: capitalized(name),
    tags: [name],
    record,
    body: (schema: string, description: string): JsonObject => ({
      required: true,
      description,
      content: json(schemaRef(schema)),
    }),
    oneRecord: (description: string): JsonObject => ({ description, content: json(record) }),
  };
}

const OPERATIONS: Record<PublicOperation, (table: OpenApiTable) => JsonObject> = {
  list: (table) => {
    const { name, Name, tags, record } = shared(table);
    return {
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
    };
  },
  create: (table) => {
    const { name, Name, tags, body, oneRecord } = shared(table);
    return {
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
    };
  },
  get: (table) => {
    const { name, Name, tags, oneRecord } = shared(table);
    return {
      operationId: `get${Name}`,
      tags,
      summary: `Get one record of ${name}`,
      responses: { '200': oneRecord('The record.'), ...errorResponses([401, 403, 404, 429, 500]) },
    };
  },
  replace: (table) => {
    const { name, Name, tags, body, oneRecord } = shared(table);
    return {
      operationId: `replace${Name}`,
      tags,
      summary: `Replace a record of ${name}`,
      description: 'Sets every column: a column left out of the body becomes NULL (refused for a required one).',
      requestBody: body(`${name}.input`, 'The whole record.'),
      responses: {
        '200': oneRecord('The record as it now is.'),
        ...errorResponses([400, 401, 403, 404, 409, 429, 500]),
      },
    };
  },
  update: (table) => {
    const { name, Name, tags, body, oneRecord } = shared(table);
    return {
      operationId: `update${Name}`,
      tags,
      summary: `Update columns of a record of ${name}`,
      description: 'Changes the columns sent; the others keep their values.',
      requestBody: body(`${name}.patch`, 'The columns to change.'),
      responses: {
        '200': oneRecord('The record as it now is.'),
        ...errorResponses([400, 401, 403, 404, 409, 429, 500]),
      },
    };
  },
  delete: (table) => {
    const { name, Name, tags } = shared(table);
    return {
      operationId: `delete${Name}`,
      tags,
      summary: `Delete a record of ${name}`,
      responses: {
        '200': { description: 'The record was deleted.', content: json(schemaRef(DELETE_RESULT_SCHEMA)) },
        ...errorResponses([401, 403, 404, 429, 500]),
      },
    };
  },
};

const isOperation = (value: unknown): value is PublicOperation =>
  typeof value === 'string' && Object.hasOwn(OPERATIONS, value);

/** documentedRoutes are the routes of the table the document describes: the public API's, under /api/table. */
export function documentedRoutes(routes: readonly Route[]): Route[] {
  return routes.filter((route) => route.family === 'public' && route.url.startsWith(PUBLIC_PREFIX));
}

/** tablePaths are one table's paths: each documented route, described for this table. */
export function tablePaths(table: OpenApiTable, routes: readonly Route[]): JsonObject {
  const paths: Record<string, JsonObject> = {};
  for (const route of routes) {
    const path = `/api/table/${table.name}${route.url.slice(PUBLIC_PREFIX.length).replace(/:(\w+)/g, '{$1}')}`;
    const item = paths[path] ?? (path.includes('{id}') ? { parameters: [componentRef('parameters', 'recordId')] } : {});
    paths[path] = item;
    const operation = route.docs?.operation;
    for (const method of Array.isArray(route.method) ? route.method : [route.method]) {
      item[method.toLowerCase()] = isOperation(operation)
        ? OPERATIONS[operation](table)
        : { tags: [table.name], summary: route.docs?.summary ?? `${method} ${path}` };
    }
  }
  return paths;
}
