import { describe, expect, it } from 'vitest';
import { diffChange, formatValue } from './change-diff';
import { historyChange as change } from './history.fixtures';

const column = (type: string, required = false, unique = false) => ({ type, required, unique });
const id = column('number', true, true);

describe('diffChange', () => {
  it('lists the fields an update changed, old and new, leaving out the system columns', () => {
    const diff = diffChange(
      change({
        previousState: { id: 1, title: 'Widget', price: 9.5, tags: ['a'], updated_at: '2026-03-01' },
        newState: { id: 1, title: 'Widget', price: 12, tags: ['a', 'b'], updated_at: '2026-03-05' },
      }),
    );
    expect(diff).toEqual({
      fields: [
        { field: 'price', before: 9.5, after: 12 },
        { field: 'tags', before: ['a'], after: ['a', 'b'] },
      ],
      schema: [],
    });
  });

  it('lists the values a create set and a delete removed, without the empty ones', () => {
    const row = { id: 3, title: 'Gadget', notes: null, created_at: '2026-03-05' };
    expect(diffChange(change({ changeType: 'RECORD_CREATE', newState: row })).fields).toEqual([
      { field: 'title', after: 'Gadget' },
    ]);
    expect(diffChange(change({ changeType: 'RECORD_DELETE', previousState: row })).fields).toEqual([
      { field: 'title', before: 'Gadget' },
    ]);
  });

  it('describes a schema change: table renamed, columns added, dropped, renamed and retyped, flags', () => {
    const diff = diffChange(
      change({
        changeType: 'SCHEMA_UPDATE',
        recordId: null,
        previousState: {
          name: 'products',
          description: 'Everything',
          schema: { id, title: column('text', true), price: column('text'), meta: column('json'), sku: column('text') },
        },
        newState: {
          name: 'items',
          description: 'Everything',
          schema: {
            id,
            title: column('text'),
            unit_price: column('number'),
            sku: column('text', false, true),
            tags: column('array'),
          },
          renames: { price: 'unit_price' },
        },
      }),
    );
    expect(diff.schema).toEqual([
      { kind: 'table', text: 'Renamed table "products" to "items"' },
      { kind: 'drop', text: 'Dropped column "meta" (json)' },
      { kind: 'change', text: 'Renamed column "price" to "unit_price"' },
      { kind: 'change', text: 'Made "title" optional' },
      { kind: 'change', text: 'Changed "unit_price" from text to number' },
      { kind: 'change', text: 'Made "sku" unique' },
      { kind: 'add', text: 'Added column "tags" (array)' },
    ]);
  });

  it('describes a created and a dropped table', () => {
    const created = diffChange(
      change({
        changeType: 'SCHEMA_CREATE',
        recordId: null,
        newState: { name: 'products', description: null, schema: { id, title: column('text', true, true) } },
      }),
    );
    expect(created.schema).toEqual([
      { kind: 'table', text: 'Created table "products"' },
      { kind: 'add', text: 'Added column "title" (text, required, unique)' },
    ]);
    const dropped = diffChange(
      change({
        changeType: 'SCHEMA_DELETE',
        recordId: null,
        previousState: { table: { name: 'products', schema: { id } }, rows: [{ id: 1 }, { id: 2 }] },
      }),
    );
    expect(dropped.schema).toEqual([{ kind: 'table', text: 'Dropped table "products" with 2 records' }]);
  });

  it("says which access rules changed, in the Access tab's words", () => {
    const nobody = { select: 'nobody', insert: 'nobody', update: 'nobody', delete: 'nobody', ownerColumn: null };
    const own = { ...nobody, select: 'authenticated', insert: 'own', ownerColumn: 'owner' };
    const diff = diffChange(
      change({
        changeType: 'SCHEMA_UPDATE',
        previousState: { name: 'todos', schema: {}, access: nobody },
        newState: { name: 'todos', schema: {}, access: own },
      }),
    );
    expect(diff.schema).toEqual([
      {
        kind: 'change',
        text: 'Access: Anyone signed in to your app can read rows (was: only you (and your server, with the app service key) can read rows)',
      },
      {
        kind: 'change',
        text: 'Access: Each signed-in user can add rows, which become their own (was: only you (and your server, with the app service key) can add rows)',
      },
      { kind: 'change', text: 'Access: "owner" holds each row\'s owner' },
    ]);
  });

  it('shows less, never fails, on states it cannot read', () => {
    expect(diffChange(change({ previousState: 'odd', newState: [1, 2] }))).toEqual({ fields: [], schema: [] });
    expect(diffChange(change({ changeType: 'SCHEMA_UPDATE', previousState: 3, newState: null })).schema).toEqual([]);
  });
});

describe('formatValue', () => {
  it('shows text as is, anything else as JSON, and cuts long values', () => {
    expect(formatValue('Widget')).toBe('Widget');
    expect(formatValue({ color: 'red' })).toBe('{"color":"red"}');
    expect(formatValue(true)).toBe('true');
    expect(formatValue('x'.repeat(400))).toHaveLength(160);
  });

  it('shows a date column as the records grid does: a midnight timestamp by its day', () => {
    expect(formatValue('2026-03-01T00:00:00.000Z', 'date')).toBe('2026-03-01');
    expect(formatValue('2026-03-01T09:30:00.000Z', 'date')).toBe('2026-03-01T09:30:00.000Z');
    // Without the column's type (a deleted table), or in a text column, the text stays as stored.
    expect(formatValue('2026-03-01T00:00:00.000Z')).toBe('2026-03-01T00:00:00.000Z');
    expect(formatValue('2026-03-01T00:00:00.000Z', 'text')).toBe('2026-03-01T00:00:00.000Z');
  });
});
