import type { TableResponse } from '@basalt/shared';
import { describe, expect, it } from 'vitest';
import { buildApiReference, exampleRecord } from './api-reference';
import { openapiFixture } from './openapi.fixtures';
import { parseOpenApiDocument, tableEndpoints } from './openapi-reading';

const document = parseOpenApiDocument(openapiFixture);

const orders: TableResponse = {
  id: 2,
  name: 'orders',
  description: 'Customer orders',
  schema: {
    id: { type: 'number', required: true, unique: true },
    total: { type: 'number', required: true, unique: false },
    paid: { type: 'boolean', required: false, unique: false },
    lines: { type: 'array', required: false, unique: false },
  },
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};

describe('the API reference of a table', () => {
  it('lists the record API endpoints the server’s OpenAPI document has for the table', () => {
    expect(tableEndpoints(document, 'orders')).toEqual([
      { method: 'GET', path: '/api/table/orders', description: 'List records of orders' },
      { method: 'POST', path: '/api/table/orders', description: 'Create a record in orders' },
      { method: 'DELETE', path: '/api/table/orders/{id}', description: 'Delete a record of orders' },
    ]);
    expect(tableEndpoints(document, 'order')).toEqual([]);
  });

  it('builds an example body without the id', () => {
    expect(exampleRecord(orders.schema)).toEqual({ total: 42, paid: true, lines: ['first', 'second'] });
  });

  it('copies as Markdown with columns, both APIs and the supabase-js calls', () => {
    const markdown = buildApiReference(orders, 'https://basalt.example', tableEndpoints(document, 'orders'));
    expect(markdown).toMatch(/^# orders API\n\nCustomer orders\n/);
    expect(markdown).toContain('| `total` | number | required |');
    expect(markdown).toContain(
      '| DELETE | `https://basalt.example/api/table/orders/{id}` | Delete a record of orders |',
    );
    expect(markdown).toContain(
      '| PATCH | `https://basalt.example/rest/v1/orders?id=eq.{id}` | Update the records that match |',
    );
    expect(markdown).toContain("await supabase.from('orders').delete().eq('id', 1);");
    expect(markdown).toContain('Authorization: Bearer <API key>');
  });
});
