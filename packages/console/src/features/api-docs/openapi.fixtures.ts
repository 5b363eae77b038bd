// openapiFixture is a small document shaped like the one GET /api/openapi.json generates for an account with
// one table (features/openapi on the server): shared parameters, responses and headers behind `$ref`s, a record
// schema, its input and patch schemas, and the shared error schema.
export const openapiFixture = {
  openapi: '3.1.0',
  info: {
    title: 'Basalt record API',
    version: '0.1.0',
    description: 'The REST endpoints of your tables. Send `Authorization: Bearer <key>`.',
  },
  servers: [{ url: 'http://localhost:8787' }],
  security: [{ apiKey: [] }],
  tags: [{ name: 'orders', description: 'Customer orders' }],
  paths: {
    '/api/table/orders': {
      get: {
        operationId: 'listOrders',
        tags: ['orders'],
        summary: 'List records of orders',
        parameters: [
          { $ref: '#/components/parameters/limit' },
          { name: 'total', in: 'query', required: false, description: 'Filter on total', schema: { type: 'string' } },
        ],
        responses: {
          '400': { $ref: '#/components/responses/BadRequest' },
          '200': {
            description: 'The records of the page.',
            headers: { 'X-Total-Count': { $ref: '#/components/headers/X-Total-Count' } },
            content: {
              'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/orders' } } },
            },
          },
        },
      },
      post: {
        operationId: 'createOrders',
        tags: ['orders'],
        summary: 'Create a record in orders',
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { $ref: '#/components/schemas/orders.input' } } },
        },
        responses: {
          '201': {
            description: 'The created record.',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/orders' } } },
          },
        },
      },
    },
    '/api/table/orders/{id}': {
      parameters: [{ $ref: '#/components/parameters/recordId' }],
      delete: {
        operationId: 'deleteOrders',
        tags: ['orders'],
        summary: 'Delete a record of orders',
        responses: {
          default: { description: 'Anything else.' },
          '200': {
            description: 'The record was deleted.',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/api.DeleteResult' } } },
          },
        },
      },
    },
  },
  components: {
    schemas: {
      'api.DeleteResult': {
        type: 'object',
        properties: { success: { type: 'boolean', const: true }, message: { type: 'string' } },
        required: ['success', 'message'],
      },
      orders: {
        type: 'object',
        description: 'Customer orders',
        properties: {
          id: { type: 'integer', minimum: 1, description: 'The record id.' },
          total: { type: 'number', description: 'number column; required.' },
          note: { type: ['string', 'null'] },
          placed_at: { type: ['string', 'null'], format: 'date-time' },
          tags: { type: ['array', 'null'], items: { type: 'string' } },
          meta: { description: 'json column.' },
        },
        required: ['id', 'total', 'note', 'placed_at', 'tags', 'meta'],
        additionalProperties: false,
      },
      'orders.input': {
        type: 'object',
        properties: { total: { type: 'number' }, note: { type: ['string', 'null'] } },
        required: ['total'],
        additionalProperties: false,
      },
    },
    parameters: {
      limit: { name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 0, default: 100 } },
      recordId: { name: 'id', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } },
    },
    headers: { 'X-Total-Count': { description: 'How many records match.', schema: { type: 'integer' } } },
    responses: { BadRequest: { description: 'The body or the query is not valid.' } },
    securitySchemes: { apiKey: { type: 'http', scheme: 'bearer', bearerFormat: 'API key' } },
  },
};

/** recordApiDocument is an OpenAPI document as the server writes one for tables of these names: six operations each. */
export function recordApiDocument(names: readonly string[]) {
  const op = (summary: string) => ({ summary, responses: { '200': { description: 'OK' } } });
  const paths: Record<string, unknown> = {};
  for (const name of names) {
    paths[`/api/table/${name}`] = { get: op(`List records of ${name}`), post: op(`Create a record in ${name}`) };
    paths[`/api/table/${name}/{id}`] = {
      get: op(`Get one record of ${name}`),
      put: op(`Replace a record of ${name}`),
      patch: op(`Update columns of a record of ${name}`),
      delete: op(`Delete a record of ${name}`),
    };
  }
  return { openapi: '3.1.0', info: { title: 'Basalt record API', version: '1' }, paths };
}
