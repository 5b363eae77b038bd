import type { TableSchema } from '@basalt/shared';
import { describe, expect, it } from 'vitest';
import { recordEndpointDocs } from './record-api-endpoints';
import { filterFor, sortColumn, tableQueryExamples } from './table-api-examples';

const schema: TableSchema = {
  id: { type: 'number', required: true, unique: true },
  title: { type: 'text', required: true, unique: false },
  qty: { type: 'number', required: false, unique: false },
};

describe('the Records tab', () => {
  const docs = recordEndpointDocs('orders', schema, 'http://localhost:8787');

  it('documents list, get, create, PUT, PATCH and DELETE on /api/table/{name}', () => {
    expect(docs.map((d) => `${d.id}: ${d.method} ${d.path}`)).toEqual([
      'list: GET /api/table/orders',
      'get: GET /api/table/orders/{id}',
      'create: POST /api/table/orders',
      'replace: PUT /api/table/orders/{id}',
      'update: PATCH /api/table/orders/{id}',
      'delete: DELETE /api/table/orders/{id}',
    ]);
  });

  it('gives each a cURL request with the real origin and an example answer', () => {
    const [list, get, create, replace, update, remove] = docs;
    expect(list?.curl).toBe(
      'curl "http://localhost:8787/api/table/orders?limit=10&offset=0&orderBy=id&order=asc" \\\n  -H "Authorization: Bearer $BASALT_API_KEY"',
    );
    expect(list?.parameters.map((p) => p.name)).toEqual(['limit', 'offset', 'orderBy', 'order', '<column>']);
    expect(list?.response.headers).toEqual({ 'X-Total-Count': '1', 'X-Page-Limit': '10', 'X-Page-Offset': '0' });
    expect(get?.curl).toContain('"http://localhost:8787/api/table/orders/1"');
    expect(create?.curl).toContain(`-d '{"title":"Hello from the API","qty":3}'`);
    expect(create?.response.status).toBe(201);
    expect(replace?.body).toEqual({ title: 'Hello from the API', qty: 3 });
    expect(update?.body).toEqual({ title: 'Hello from the API (updated)' });
    expect(update?.response.body).toMatchObject({ id: 1, title: 'Hello from the API (updated)', qty: 3 });
    expect(remove?.response.body).toEqual({ success: true, message: 'Record deleted successfully' });
  });
});

describe('the Table API examples', () => {
  it('filters on the first filterable column by its type, else on created_at', () => {
    expect(filterFor(schema)).toEqual({ column: 'title', filter: 'eq.Hello%20from%20the%20API' });
    expect(filterFor({ price: { type: 'number', required: false, unique: false } })).toEqual({
      column: 'price',
      filter: 'gte.19.99',
    });
    expect(filterFor({ done: { type: 'boolean', required: false, unique: false } }).filter).toBe('is.true');
    expect(filterFor({ tags: { type: 'array', required: false, unique: false } })).toEqual({
      column: 'created_at',
      filter: 'gte.2025-01-01',
    });
  });

  it('sorts by the first sortable column', () => {
    expect(sortColumn(schema)).toBe('title');
    expect(sortColumn({ meta: { type: 'json', required: false, unique: false } })).toBe('created_at');
  });

  it('pages, sorts, filters and adds with curl', () => {
    const examples = tableQueryExamples('orders', schema, 'https://db.example');
    expect(examples.map((e) => e.id)).toEqual(['page', 'sort', 'filter', 'create']);
    expect(examples[0]?.code).toContain('curl -i "https://db.example/api/table/orders?limit=20&offset=0"');
    expect(examples[2]?.code).toContain('"https://db.example/api/table/orders?title=eq.Hello%20from%20the%20API"');
  });
});
