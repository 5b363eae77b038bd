import { describe, expect, it } from 'vitest';
import { openapiFixture } from './openapi.fixtures';
import type { OpenApiDocument } from './openapi-document';
import {
  operationGroups,
  parameterRows,
  parseOpenApiDocument,
  refName,
  resolvePointer,
  responsesOf,
  schemaFields,
  schemaLabel,
  securityLines,
} from './openapi-reading';

const document = parseOpenApiDocument(openapiFixture);

describe('reading an OpenAPI document', () => {
  it('accepts an OpenAPI 3 document and refuses anything else', () => {
    expect(document.info.title).toBe('Basalt record API');
    expect(() => parseOpenApiDocument({ swagger: '2.0', info: { title: 'x', version: '1' } })).toThrow();
    expect(() => parseOpenApiDocument({ openapi: '2.0', info: { title: 'x', version: '1' } })).toThrow();
  });

  it('follows local pointers, with ~1 for a slash, and refuses remote ones', () => {
    expect(resolvePointer(document, '#/components/parameters/limit')).toMatchObject({ name: 'limit' });
    expect(resolvePointer({ a: { 'b/c': 1 } }, '#/a/b~1c')).toBe(1);
    expect(resolvePointer(document, 'https://example.com/schema.json')).toBeUndefined();
    expect(resolvePointer(document, '#/components/nothing')).toBeUndefined();
    expect(refName('#/components/schemas/orders.input')).toBe('orders.input');
  });

  it('groups operations by tag with path-level and shared parameters resolved', () => {
    const [orders, ...rest] = operationGroups(document);
    expect(rest).toEqual([]);
    expect(orders?.name).toBe('orders');
    expect(orders?.description).toBe('Customer orders');
    expect(orders?.operations.map((o) => `${o.method} ${o.path}`)).toEqual([
      'get /api/table/orders',
      'post /api/table/orders',
      'delete /api/table/orders/{id}',
    ]);
    expect(orders?.operations[0]?.parameters.map((p) => p.name)).toEqual(['limit', 'total']);
    expect(orders?.operations[2]?.parameters).toEqual([
      expect.objectContaining({ name: 'id', in: 'path', required: true }),
    ]);
    expect(orders?.operations[1]?.requestBody?.required).toBe(true);
  });

  it('puts untagged operations under Endpoints', () => {
    const untagged = parseOpenApiDocument({
      openapi: '3.1.0',
      info: { title: 't', version: '1' },
      paths: { '/ping': { get: { responses: { '200': { description: 'pong' } } } } },
    });
    expect(operationGroups(untagged).map((g) => g.name)).toEqual(['Endpoints']);
  });

  it('describes schemas in one line', () => {
    expect(schemaLabel(document, { type: 'array', items: { $ref: '#/components/schemas/orders' } })).toBe('orders[]');
    expect(schemaLabel(document, { type: ['string', 'null'], format: 'date-time' })).toBe('string (date-time) | null');
    expect(schemaLabel(document, { type: 'string', enum: ['asc', 'desc'] })).toBe('"asc" | "desc"');
    expect(schemaLabel(document, { type: 'boolean', const: true })).toBe('true');
    expect(schemaLabel(document, { anyOf: [{ type: 'object' }, { type: 'null' }] })).toBe('object | null');
    expect(schemaLabel(document, { type: 'array', items: { type: ['string', 'null'] } })).toBe('(string | null)[]');
    expect(schemaLabel(document, { type: 'string', nullable: true })).toBe('string | null');
    expect(schemaLabel(document, {})).toBe('any');
    expect(schemaLabel(document, true)).toBe('any');
  });

  it('lists the fields of an object schema through $ref, with required flags and descriptions', () => {
    expect(schemaFields(document, { $ref: '#/components/schemas/orders.input' })).toEqual([
      { name: 'total', type: 'number', required: true },
      { name: 'note', type: 'string | null', required: false },
    ]);
    const record = schemaFields(document, { $ref: '#/components/schemas/orders' });
    expect(record.find((f) => f.name === 'meta')).toEqual({
      name: 'meta',
      type: 'any',
      required: true,
      description: 'json column.',
    });
    expect(record.find((f) => f.name === 'tags')?.type).toBe('string[] | null');
  });

  it('merges allOf members and survives a reference cycle', () => {
    const cyclic = parseOpenApiDocument({
      openapi: '3.1.0',
      info: { title: 't', version: '1' },
      components: {
        schemas: {
          a: { $ref: '#/components/schemas/b' },
          b: { $ref: '#/components/schemas/a' },
          base: { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] },
          child: { allOf: [{ $ref: '#/components/schemas/base' }], properties: { name: { type: 'string' } } },
        },
      },
    }) satisfies OpenApiDocument;
    expect(schemaFields(cyclic, { $ref: '#/components/schemas/a' })).toEqual([]);
    expect(schemaFields(cyclic, { $ref: '#/components/schemas/child' }).map((f) => f.name)).toEqual(['id', 'name']);
  });

  it('orders responses by status with default last, resolving shared ones', () => {
    const list = operationGroups(document)[0]?.operations[0]?.operation;
    const responses = list ? responsesOf(document, list) : [];
    expect(responses.map((r) => r.status)).toEqual(['200', '400']);
    expect(responses[0]).toMatchObject({ headers: ['X-Total-Count'], content: { mediaType: 'application/json' } });
    expect(responses[1]?.description).toBe('The body or the query is not valid.');
    const remove = operationGroups(document)[0]?.operations[2]?.operation;
    expect(remove ? responsesOf(document, remove).map((r) => r.status) : []).toEqual(['200', 'default']);
  });

  it('joins a run of parameters that differ only by name into one row', () => {
    const filter = (name: string) => ({
      name,
      in: 'query',
      required: false,
      description: `Filter on ${name}: operator.value (eq, neq, gt).`,
      schema: { type: 'string' },
    });
    const rows = parameterRows(document, [
      { name: 'limit', in: 'query', schema: { type: 'integer' } },
      filter('id'),
      filter('title'),
      filter('eq'),
      filter('qty'),
      { name: 'or', in: 'query', description: 'Records matching any of several filters.', schema: { type: 'string' } },
    ]);
    expect(rows).toEqual([
      { names: ['limit'], in: 'query', type: 'integer', required: false },
      {
        names: ['id', 'title'],
        in: 'query',
        type: 'string',
        required: false,
        description: 'Filter on {name}: operator.value (eq, neq, gt).',
      },
      // A name that also appears elsewhere in the text is not a run of its kind: it keeps its own row.
      expect.objectContaining({ names: ['eq'], description: 'Filter on eq: operator.value (eq, neq, gt).' }),
      expect.objectContaining({ names: ['qty'], description: 'Filter on qty: operator.value (eq, neq, gt).' }),
      expect.objectContaining({ names: ['or'] }),
    ]);
  });

  it('says how the document authenticates', () => {
    expect(securityLines(document)).toEqual(['apiKey: Authorization: Bearer <API key>']);
  });
});
