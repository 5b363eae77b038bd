import type { TableSchema } from '@basalt/shared';
import { describe, expect, it } from 'vitest';
import type { Method, Route } from '../../http/routes/route.js';
import { expectValidOpenApi, openApiProblems, schemaErrors } from '../../testing/openapi.fixtures.js';
import { buildOpenApiDocument, type OpenApiTable } from './openapi.service.js';

// buildOpenApiDocument without a server: the document is valid OpenAPI 3.1 and says what the public record API
// does with each table. openapi.test.ts checks it against a real server with a generic client.

const SERVER = 'https://basalt.example.com';
const col = (type: string, flags: { required?: boolean; unique?: boolean } = {}) => ({
  type,
  required: flags.required ?? false,
  unique: flags.unique ?? false,
});

const items: OpenApiTable = {
  name: 'items',
  description: 'Things in stock',
  // As the tables service returns it: the id system column first.
  schema: {
    id: col('number', { required: true, unique: true }),
    name: col('text', { required: true }),
    qty: col('number'),
    done: col('boolean'),
    due: col('date'),
    tags: col('array'),
    meta: col('json'),
    sku: col('text', { unique: true }),
  } as TableSchema,
};
const notes: OpenApiTable = { name: 'notes', description: null, schema: { body: col('text') } as TableSchema };
// The columns of items in order, and a record's fields: the columns, then the timestamps the server keeps.
const ITEM_COLUMNS = ['id', 'name', 'qty', 'done', 'due', 'tags', 'meta', 'sku'];
const ITEM_FIELDS = [...ITEM_COLUMNS, 'created_at', 'updated_at'];

// biome-ignore lint/suspicious/noExplicitAny: the tests walk the generated JSON freely.
type Doc = Record<string, any>;
// The public API's routes as the route table declares them (public-api.routes.ts): the document follows them.
const route = (method: Method, url: string, operation: string): Route => ({
  method,
  url,
  family: 'public',
  admit: [],
  docs: { summary: `The ${operation} route`, operation },
  handler: () => null,
});
const PUBLIC_ROUTES = [
  route('GET', '/api/table/:name', 'list'),
  route('POST', '/api/table/:name', 'create'),
  route('GET', '/api/table/:name/:id', 'get'),
  route('PUT', '/api/table/:name/:id', 'replace'),
  route('PATCH', '/api/table/:name/:id', 'update'),
  route('DELETE', '/api/table/:name/:id', 'delete'),
  // The short form is the same API under another path: the document names the long one only.
  route('GET', '/api/:name', 'list'),
];
const build = (tables: OpenApiTable[], routes: Route[] = PUBLIC_ROUTES): Doc =>
  buildOpenApiDocument(tables, { serverUrl: SERVER, routes }) as Doc;
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

describe('buildOpenApiDocument', () => {
  it('describes the routes the route table has, and no other', () => {
    const withoutDelete = build(
      [notes],
      PUBLIC_ROUTES.filter((r) => r.method !== 'DELETE'),
    );
    expect(Object.keys(withoutDelete.paths['/api/table/notes/{id}'])).toEqual(['parameters', 'get', 'put', 'patch']);
    expect(Object.keys(withoutDelete.paths)).toEqual(['/api/table/notes', '/api/table/notes/{id}']);
    const withAnother = build([notes], [...PUBLIC_ROUTES, route('GET', '/api/table/:name/:id/history', 'history')]);
    expect(withAnother.paths['/api/table/notes/{id}/history']).toEqual({
      parameters: [{ $ref: '#/components/parameters/recordId' }],
      get: { tags: ['notes'], summary: 'The history route' },
    });
  });

  it('makes a valid OpenAPI 3.1 document for an account without tables', async () => {
    const doc = build([]);
    await expectValidOpenApi(doc);
    expect(doc).toMatchObject({
      openapi: '3.1.0',
      info: { title: 'Basalt record API', version: expect.any(String) },
      servers: [{ url: SERVER }],
      security: [{ apiKey: [] }],
      paths: {},
      components: { securitySchemes: { apiKey: { type: 'http', scheme: 'bearer' } } },
    });
  });

  it('makes a valid document whose every reference resolves, for several tables', async () => {
    const resolved = await expectValidOpenApi(build([items, notes]));
    expect(Object.keys(resolved.paths as object)).toEqual([
      '/api/table/items',
      '/api/table/items/{id}',
      '/api/table/notes',
      '/api/table/notes/{id}',
    ]);
  });

  it('is checked by a real validator: a broken reference or a wrong field is reported', async () => {
    const doc = build([items]);
    doc.paths['/api/table/items'].get.responses['200'].content['application/json'].schema.items.$ref =
      '#/components/schemas/nothing';
    expect(await openApiProblems(doc)).not.toEqual([]);
    const wrong = build([items]);
    wrong.paths['/api/table/items'].get.responses = 'none';
    expect(await openApiProblems(wrong)).not.toEqual([]);
  });

  it("gives each tag the table's access rules for the app's users, in rules and in words, and stays valid", async () => {
    const access = {
      select: 'authenticated',
      insert: 'own',
      update: 'own',
      delete: 'own',
      ownerColumn: 'owner',
    } as const;
    const doc = build([{ ...notes, access }]);
    await expectValidOpenApi(doc);
    expect(doc.tags[0]['x-basalt-access']).toEqual({
      ...access,
      summary: 'Anyone signed in to your app can read; each user edits only their own rows',
      rules: [
        'Anyone signed in to your app can read rows',
        'Each signed-in user can add rows, which become their own',
        'Each signed-in user can change only their own rows',
        'Each signed-in user can delete only their own rows',
      ],
    });
  });

  it('lists tables sorted by name, with a tag each, and is the same for the same tables', () => {
    const doc = build([notes, items]);
    expect(doc.tags).toEqual([{ name: 'items', description: 'Things in stock' }, { name: 'notes' }]);
    expect(build([items, notes])).toEqual(doc);
  });

  it('describes a record: every column present, nullable unless required, typed per column type', () => {
    const record = build([items]).components.schemas.items;
    expect(record).toMatchObject({
      type: 'object',
      title: 'items',
      description: 'Things in stock',
      additionalProperties: false,
      required: ITEM_FIELDS,
    });
    const p = record.properties;
    expect(Object.keys(p)).toEqual(ITEM_FIELDS);
    expect(p.id).toMatchObject({ type: 'integer', minimum: 1 });
    expect(p.name).toMatchObject({ type: 'string', description: expect.stringContaining('required') });
    expect(p.qty.type).toEqual(['number', 'null']);
    expect(p.done.type).toEqual(['boolean', 'null']);
    expect(p.due).toMatchObject({ type: ['string', 'null'], format: 'date-time' });
    expect(p.tags).toMatchObject({ type: ['array', 'null'], items: {} });
    expect(p.meta.type).toBeUndefined();
    expect(p.sku.description).toContain('unique');
    expect(p.created_at).toMatchObject({ type: 'string', format: 'date-time' });
  });

  it('describes the request bodies: POST/PUT need the required columns, PATCH none, unknown columns refused', async () => {
    const doc = build([items]);
    const { input, patch } = {
      input: doc.components.schemas['items.input'],
      patch: doc.components.schemas['items.patch'],
    };
    expect(input).toMatchObject({ type: 'object', required: ['name'], additionalProperties: false });
    expect(Object.keys(input.properties)).toEqual(ITEM_COLUMNS);
    expect(patch.required).toBeUndefined();
    expect(Object.keys(patch.properties)).toEqual(ITEM_COLUMNS.filter((column) => column !== 'id'));
    expect(doc.components.schemas['notes.input']).toBeUndefined();
    expect(build([notes]).components.schemas['notes.input'].required).toBeUndefined();

    const resolved = await expectValidOpenApi(doc);
    expect(schemaErrors(resolved, 'items.input', { name: 'pen', qty: 2, tags: ['a'], meta: { a: 1 } })).toBeNull();
    expect(schemaErrors(resolved, 'items.input', { qty: 2 })).not.toBeNull();
    expect(schemaErrors(resolved, 'items.input', { name: 'pen', colour: 'red' })).not.toBeNull();
    expect(schemaErrors(resolved, 'items.input', { name: 'pen', qty: '2' })).not.toBeNull();
    expect(schemaErrors(resolved, 'items.patch', { qty: null })).toBeNull();
    expect(schemaErrors(resolved, 'items.patch', { name: null })).not.toBeNull();
    const record = {
      id: 1,
      name: 'pen',
      qty: null,
      done: false,
      due: '2025-05-01T00:00:00.000Z',
      tags: null,
      meta: 'anything',
      sku: null,
      created_at: '2025-05-01T10:00:00.000Z',
      updated_at: '2025-05-01T10:00:00.000Z',
    };
    expect(schemaErrors(resolved, 'items', record)).toBeNull();
    expect(schemaErrors(resolved, 'items', { ...record, due: 'tomorrow' })).not.toBeNull();
  });

  it('has the six operations of each table with unique operation ids and the documented statuses', () => {
    const doc = build([items, notes]);
    const collection = doc.paths['/api/table/items'];
    const one = doc.paths['/api/table/items/{id}'];
    expect(Object.keys(collection)).toEqual(['get', 'post']);
    expect(Object.keys(one).filter((k) => METHODS.includes(k))).toEqual(['get', 'put', 'patch', 'delete']);
    const ids = Object.values(doc.paths as Record<string, Doc>).flatMap((item: Doc) =>
      METHODS.filter((m) => item[m]).map((m) => item[m].operationId),
    );
    expect(ids).toEqual([
      'listItems',
      'createItems',
      'getItems',
      'replaceItems',
      'updateItems',
      'deleteItems',
      'listNotes',
      'createNotes',
      'getNotes',
      'replaceNotes',
      'updateNotes',
      'deleteNotes',
    ]);
    const statuses = (op: Doc) => Object.keys(op.responses);
    expect(statuses(collection.get)).toEqual(['200', '400', '401', '403', '404', '429', '500']);
    expect(statuses(collection.post)).toEqual(['201', '400', '401', '403', '404', '409', '429', '500']);
    expect(statuses(one.delete)).toEqual(['200', '401', '403', '404', '429', '500']);
    expect(one.parameters).toEqual([{ $ref: '#/components/parameters/recordId' }]);
    expect(one.delete.responses['200'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/api.DeleteResult',
    });
    expect(collection.post.requestBody.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/items.input',
    });
    expect(one.patch.requestBody.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/items.patch',
    });
    expect(doc.components.responses.NotFound.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/api.Error',
    });
    expect(doc.components.responses.RateLimited.headers).toHaveProperty('Retry-After');
  });

  it('documents paging, ordering, filters and the paging headers of a list', () => {
    const doc = build([items]);
    const list = doc.paths['/api/table/items'].get;
    const names = list.parameters.map((p: Doc) => p.name ?? p.$ref);
    expect(names).toEqual([
      '#/components/parameters/limit',
      '#/components/parameters/offset',
      'orderBy',
      '#/components/parameters/order',
      ...ITEM_FIELDS,
      '#/components/parameters/or',
      '#/components/parameters/and',
    ]);
    expect(list.parameters[2].schema.enum).toEqual(Object.keys(doc.components.schemas.items.properties));
    expect(doc.components.parameters.limit.schema).toEqual({ type: 'integer', minimum: 0, default: 100 });
    expect(doc.components.parameters.order.schema).toMatchObject({ enum: ['asc', 'desc'], default: 'asc' });
    expect(Object.keys(list.responses['200'].headers)).toEqual(['X-Total-Count', 'X-Page-Limit', 'X-Page-Offset']);
    expect(doc.paths['/api/table/items'].post.responses['201'].headers).toHaveProperty('Location');
  });

  it('leaves out the filter of a column named like a paging or logic parameter, which the API reads first', async () => {
    const odd: OpenApiTable = {
      name: 'odd',
      description: null,
      schema: { limit: col('number'), or: col('text'), order: col('text'), plain: col('text') } as TableSchema,
    };
    const doc = build([odd]);
    await expectValidOpenApi(doc);
    const params = doc.paths['/api/table/odd'].get.parameters;
    const filters = params.filter((p: Doc) => p.in === 'query' && p.name !== 'orderBy').map((p: Doc) => p.name);
    expect(filters).toEqual(['id', 'plain', 'created_at', 'updated_at']);
    expect(params.find((p: Doc) => p.name === 'orderBy').schema.enum).toContain('limit');
  });

  it('cannot clash a table with the shared schemas: a table named Error keeps its own name', async () => {
    const error: OpenApiTable = { name: 'Error', description: null, schema: { x: col('text') } as TableSchema };
    const doc = build([error]);
    await expectValidOpenApi(doc);
    expect(Object.keys(doc.components.schemas)).toEqual([
      'api.Error',
      'api.DeleteResult',
      'Error',
      'Error.input',
      'Error.patch',
    ]);
  });
});
