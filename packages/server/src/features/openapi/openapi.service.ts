import { BASALT_VERSION, describeAccess, describeRule, SITE_NAME, type TableAccess } from '@basalt/shared';
import type { Route } from '../../http/routes/route.js';
import { sharedComponents, sharedSchemas } from './openapi-components.js';
import { documentedRoutes, tablePaths } from './openapi-operations.js';
import {
  inputSchema,
  type JsonObject,
  OPENAPI_VERSION,
  type OpenApiDocument,
  type OpenApiTable,
  recordSchema,
  SECURITY_SCHEME,
} from './openapi-parts.js';

// The OpenAPI 3.1 document of one account's public record API (features/public-api), generated from its tables
// and the route table's public routes: what public-api.routes.ts serves, as it serves it. Pure: the same tables give the same document, so it is
// unit-tested without a server. Names in `components.schemas`: a table's record is its own name (`orders`), its
// request bodies `orders.input` (POST, PUT) and `orders.patch` (PATCH). Shared ones start with `api.`: no table
// can be named `api` (RESERVED_TABLE_NAMES) and table names have no dot, so no two names ever clash.

export type { OpenApiDocument, OpenApiTable } from './openapi-parts.js';

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

/**
 * buildOpenApiDocument describes the public record API of an account with these tables, served at
 * `serverUrl`: for each table, the operations of the route table's public routes (list, create, get, replace,
 * update, delete) and the schemas of its records and request bodies. Tables come out sorted by name.
 */
export function buildOpenApiDocument(
  tables: OpenApiTable[],
  options: { serverUrl: string; routes: readonly Route[] },
): OpenApiDocument {
  const routes = documentedRoutes(options.routes);
  const sorted = [...tables].sort((a, b) => a.name.localeCompare(b.name, 'en'));
  const schemas: JsonObject = {};
  const paths: JsonObject = {};
  for (const table of sorted) {
    schemas[table.name] = recordSchema(table);
    schemas[`${table.name}.input`] = inputSchema(table, { partial: false });
    schemas[`${table.name}.patch`] = inputSchema(table, { partial: true });
    Object.assign(paths, tablePaths(table, routes));
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
