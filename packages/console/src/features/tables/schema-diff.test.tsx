import type { TableResponse } from '@basalt/shared';
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SchemaDiffPreview } from './SchemaDiffPreview';
import { diffTableDraft } from './schema-diff';
import { type ColumnDraft, draftFromTable, newColumnDraft } from './table-draft';

const products: TableResponse = {
  id: 4,
  name: 'products',
  description: null,
  schema: {
    id: { type: 'number', required: true, unique: true },
    title: { type: 'text', required: true, unique: true },
    price: { type: 'number', required: false, unique: false },
    meta: { type: 'json', required: false, unique: false },
    code: { type: 'text', required: false, unique: false },
  },
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};

function edited(change: (columns: ColumnDraft[]) => ColumnDraft[]) {
  const draft = draftFromTable(products);
  return { ...draft, columns: change(draft.columns) };
}

describe('diffTableDraft', () => {
  it('is empty for the saved table', () => {
    expect(diffTableDraft(products, draftFromTable(products))).toEqual([]);
  });

  it('lists every change in the order the server runs them, in its words', () => {
    const draft = edited(([id, title, price, , code]) => [
      id as ColumnDraft,
      { ...(title as ColumnDraft), unique: false },
      { ...(price as ColumnDraft), name: 'unit_price', type: 'text', required: true },
      { ...(code as ColumnDraft), unique: true },
      { ...newColumnDraft(), name: 'sku', required: true },
    ]);
    draft.name = 'items';
    draft.description = 'Everything we sell';
    expect(diffTableDraft(products, draft).map((line) => line.text)).toEqual([
      'Rename table "products" to "items"',
      'Change the description',
      'Drop column "meta" (json) and its data',
      'Rename column "price" to "unit_price"',
      'Allow duplicate values in "title"',
      'Change "unit_price" from number to text',
      'Add column "sku" (text, required)',
      'Make "unit_price" required',
      'Make "code" unique',
    ]);
  });

  it("adds and drops an index in the server's words, and never on a json column", () => {
    const indexed = {
      ...products,
      schema: { ...products.schema, code: { type: 'text' as const, required: false, unique: false, indexed: true } },
    };
    const draft = edited(([id, title, price, meta, code]) => [
      id as ColumnDraft,
      title as ColumnDraft,
      { ...(price as ColumnDraft), indexed: true },
      { ...(meta as ColumnDraft), indexed: true },
      code as ColumnDraft,
    ]);
    expect(diffTableDraft(products, draft).map((l) => [l.kind, l.text])).toEqual([
      ['index', 'Add an index on "price"'],
    ]);
    expect(diffTableDraft(indexed, draftFromTable(products)).map((l) => l.text)).toEqual(['Drop the index on "code"']);
    expect(diffTableDraft(indexed, draftFromTable(indexed))).toEqual([]);
  });

  it("makes a text column searchable and back in the server's words, and never a number column", () => {
    const searchable = {
      ...products,
      schema: { ...products.schema, code: { type: 'text' as const, required: false, unique: false, search: true } },
    };
    const draft = edited(([id, title, price, meta, code]) => [
      id as ColumnDraft,
      title as ColumnDraft,
      { ...(price as ColumnDraft), search: true },
      meta as ColumnDraft,
      { ...(code as ColumnDraft), search: true },
    ]);
    expect(diffTableDraft(products, draft).map((l) => l.text)).toEqual(['Make "code" searchable (a full-text index)']);
    expect(diffTableDraft(searchable, draftFromTable(products)).map((l) => l.text)).toEqual([
      'Drop the full-text index of "code"',
    ]);
    expect(diffTableDraft(searchable, draftFromTable(searchable))).toEqual([]);
  });

  it('marks a drop as the change that loses data', () => {
    const lines = diffTableDraft(
      products,
      edited((columns) => columns.filter((c) => c.name !== 'code')),
    );
    expect(lines).toEqual([{ kind: 'drop', text: 'Drop column "code" (text) and its data' }]);
  });

  it('makes a column optional, and names an unnamed new column', () => {
    const lines = diffTableDraft(
      products,
      edited(([id, title, ...rest]) => [
        id as ColumnDraft,
        { ...(title as ColumnDraft), required: false },
        ...rest,
        newColumnDraft(),
      ]),
    );
    expect(lines.map((l) => l.text)).toEqual(['Make "title" optional', 'Add column "(unnamed)" (text)']);
  });
});

describe('SchemaDiffPreview', () => {
  it('lists the planned changes', () => {
    render(
      <SchemaDiffPreview
        lines={[
          { kind: 'drop', text: 'Drop column "meta" (json) and its data' },
          { kind: 'add', text: 'Add column "sku" (text)' },
        ]}
      />,
    );
    const list = screen.getByRole('list', { name: 'Planned changes' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Drop column "meta" (json) and its data', 'Add column "sku" (text)']);
  });

  it('says when there is nothing to save', () => {
    render(<SchemaDiffPreview lines={[]} />);
    expect(screen.getByText('No changes yet. Edit the table to see what saving will do.')).toBeInTheDocument();
  });
});
