// The docs pages' query keys. Imports nothing; their table list is tableKeys.apiList, in tables.keys.ts.

/** openApiKeys are the OpenAPI reference's queries. */
export const openApiKeys = {
  document: ['/api/openapi.json'] as const,
};
