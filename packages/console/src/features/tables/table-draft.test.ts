import type { TableResponse } from '@basalt/shared';
import { describe, expect, it } from 'vitest';
import {
  type ColumnDraft,
  draftFromTable,
  emptyTableDraft,
  idColumnDraft,
  newColumnDraft,
  type TableDraft,
  tableDraftSchema,
  toCreateTableRequest,
  toTableChange,
} from './table-draft';

const column = (name: string, overrides: Partial<ColumnDraft> = {}): ColumnDraft => ({
  ...newColumnDraft(),
  name,
  ...overrides,
});

function messages(draft: TableDraft): Record<string, string> {
  const result = tableDraftSchema.safeParse(draft);
  if (result.success) return {};
  // The first message of each field, as the form shows it.
  const found: Record<string, string> = {};
  for (const issue of result.error.issues) found[issue.path.join('.')] ??= issue.message;
  return found;
}

const products: TableResponse = {
  id: 4,
  name: 'products',
  description: 'Everything we sell',
  schema: {
    id: { type: 'number', required: true, unique: true },
    title: { type: 'text', required: true, unique: false },
    price: { type: 'number', required: false, unique: false },
  },
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};

describe('tableDraftSchema', () => {
  it('starts a new table with the locked id column and one column to fill in', () => {
    expect(emptyTableDraft().columns).toEqual([idColumnDraft(), newColumnDraft()]);
    expect(idColumnDraft()).toMatchObject({ name: 'id', type: 'number', required: true, unique: true, system: true });
  });

  it('gives the form messages and those of the shared schema', () => {
    expect(messages(emptyTableDraft())).toEqual({
      name: 'Table name must be at least 3 characters',
      'columns.1.name': 'Column name is required',
    });
    expect(messages({ name: 'ok', description: '', columns: [] })).toEqual({
      name: 'Table name must be at least 3 characters',
      columns: 'At least one column is required',
    });
    expect(messages({ ...emptyTableDraft(), name: '9lives', columns: [idColumnDraft(), column('2fast')] })).toEqual({
      name: 'Table name must start with a letter and contain only letters, numbers and underscores',
      'columns.1.name': 'Column name must start with a letter and contain only letters, numbers and underscores',
    });
    expect(messages({ ...emptyTableDraft(), name: 'users', columns: [idColumnDraft(), column('email')] })).toEqual({
      name: '"users" is a reserved name; choose another table name',
    });
  });

  it('refuses a repeated column name (ignoring case) and a user column named like a system one', () => {
    expect(
      messages({ name: 'people', description: '', columns: [idColumnDraft(), column('Email'), column('email')] }),
    ).toEqual({ 'columns.2.name': 'Column names must be unique: "email" is used twice (names ignore case)' });
    expect(messages({ name: 'people', description: '', columns: [idColumnDraft(), column('created_at')] })).toEqual({
      'columns.1.name': '"created_at" is a system column (date, required) and cannot be defined or changed',
    });
  });

  it('accepts a valid draft', () => {
    expect(
      messages({ name: 'people', description: 'Who is who', columns: [idColumnDraft(), column('email')] }),
    ).toEqual({});
  });
});

describe('toCreateTableRequest', () => {
  it('sends the name, the description or null, and the schema in column order with the id column first', () => {
    expect(
      toCreateTableRequest({
        name: 'people',
        description: '  ',
        columns: [
          idColumnDraft(),
          column('email', { required: true, unique: true }),
          column('age', { type: 'number' }),
        ],
      }),
    ).toEqual({
      name: 'people',
      description: null,
      schema: {
        id: { type: 'number', required: true, unique: true },
        email: { type: 'text', required: true, unique: true },
        age: { type: 'number', required: false, unique: false },
      },
    });
  });
});

describe('toTableChange', () => {
  it('is null when nothing changed', () => {
    expect(toTableChange(products, draftFromTable(products))).toBeNull();
  });

  it('sends only what changed, with explicit renames', () => {
    const draft = draftFromTable(products);
    draft.name = 'items';
    draft.columns = [
      idColumnDraft(),
      { ...(draft.columns[1] as ColumnDraft), name: 'name' },
      { ...(draft.columns[2] as ColumnDraft), type: 'text' },
      column('sku', { unique: true }),
    ];
    expect(toTableChange(products, draft)).toEqual({
      name: 'items',
      schema: {
        id: { type: 'number', required: true, unique: true },
        name: { type: 'text', required: true, unique: false },
        price: { type: 'text', required: false, unique: false },
        sku: { type: 'text', required: false, unique: true },
      },
      renames: { title: 'name' },
    });
  });

  it('clears the description with null', () => {
    expect(toTableChange(products, { ...draftFromTable(products), description: '' })).toEqual({ description: null });
  });
});

describe('reference columns in a draft', () => {
  const posts: TableResponse = {
    id: 7,
    name: 'posts',
    description: null,
    schema: {
      id: { type: 'number', required: true, unique: true },
      author_id: {
        type: 'number',
        required: false,
        unique: false,
        references: { table: 'authors', onDelete: 'cascade' },
      },
    },
    access: { select: 'nobody', insert: 'nobody', update: 'nobody', delete: 'nobody' },
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
  };

  it('sends a number column’s reference, and none for another type', () => {
    const draft: TableDraft = {
      name: 'posts',
      description: '',
      columns: [
        idColumnDraft(),
        column('author_id', { type: 'number', referencesTable: 'authors', onDelete: 'set null' }),
        column('label', { type: 'text', referencesTable: 'authors' }),
      ],
    };
    const { schema } = toCreateTableRequest(draft);
    expect(schema.author_id?.references).toEqual({ table: 'authors', onDelete: 'set null' });
    expect(schema.label?.references).toBeUndefined();
  });

  it('reads a saved reference back and sends a change of it only', () => {
    const draft = draftFromTable(posts);
    expect(draft.columns[1]).toMatchObject({ referencesTable: 'authors', onDelete: 'cascade' });
    expect(toTableChange(posts, draft)).toBeNull();
    const unlinked = { ...draft, columns: draft.columns.map((c) => ({ ...c, referencesTable: '' })) };
    expect(toTableChange(posts, unlinked)?.schema?.author_id?.references).toBeUndefined();
    expect(toTableChange(posts, unlinked)).not.toBeNull();
  });

  it('sends the label a reference is shown by, and a change of the label alone', () => {
    const draft = draftFromTable(posts);
    expect(draft.columns[1]?.referencesLabel).toBe('');
    const labelled = { ...draft, columns: draft.columns.map((c) => ({ ...c, referencesLabel: 'name' })) };
    expect(toTableChange(posts, labelled)?.schema?.author_id?.references).toEqual({
      table: 'authors',
      onDelete: 'cascade',
      label: 'name',
    });
  });
});
