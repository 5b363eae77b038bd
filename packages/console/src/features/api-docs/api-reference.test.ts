import type { TableResponse } from '@basalt/shared';
import { describe, expect, it } from 'vitest';
import { buildApiReference, exampleRecord, recordApiEndpoints } from './api-reference';

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
  it('lists the record API endpoints under /api/table/<name>', () => {
    expect(recordApiEndpoints('orders').map((e) => `${e.method} ${e.path}`)).toEqual([
      'GET /api/table/orders',
      'POST /api/table/orders',
      'GET /api/table/orders/{id}',
      'PATCH /api/table/orders/{id}',
      'PUT /api/table/orders/{id}',
      'DELETE /api/table/orders/{id}',
    ]);
  });

  it('builds an example body without the id', () => {
    expect(exampleRecord(orders.schema)).toEqual({ total: 42, paid: true, lines: ['first', 'second'] });
  });

  it('copies as Markdown with columns, both APIs and the supabase-js calls', () => {
    const markdown = buildApiReference(orders, 'https://basalt.example');
    expect(markdown).toMatch(/^# orders API\n\nCustomer orders\n/);
    expect(markdown).toContain('| `total` | number | required |');
    expect(markdown).toContain('| GET | `https://basalt.example/api/table/orders/{id}` | Get one record |');
    expect(markdown).toContain(
      '| PATCH | `https://basalt.example/rest/v1/orders?id=eq.{id}` | Update the records that match |',
    );
    expect(markdown).toContain("await supabase.from('orders').delete().eq('id', 1);");
    expect(markdown).toContain('Authorization: Bearer <API key>');
  });
});
