// Tests of packages/shared/src/tables.schemas.ts, kept here because this session owns no test file in
// packages/shared; they belong beside it (packages/shared/src/tables.schemas.test.ts runs in the same project).
import {
  columnNameSchema,
  createTableSchema,
  findDuplicateName,
  isReservedTableName,
  RESERVED_TABLE_NAMES,
  tableNameSchema,
  tableSchemaSchema,
  updateTableSchema,
  userColumnsOf,
} from '@basalt/shared';
import { describe, expect, it } from 'vitest';
import { identifierProblem } from '../../db/identifiers.js';

const messagesOf = (result: { success: boolean; error?: { issues: Array<{ message: string }> } }) =>
  result.success ? [] : (result.error?.issues.map((i) => i.message) ?? []);

describe('tableNameSchema', () => {
  it.each<[unknown, string[]]>([
    ['orders', []],
    ['Orders_2024', []],
    [`a${'b'.repeat(62)}`, []],
    ['ab', ['Table name must be at least 3 characters']],
    [
      '',
      [
        'Table name must be at least 3 characters',
        'Table name must start with a letter and contain only letters, numbers and underscores',
      ],
    ],
    [`a${'b'.repeat(63)}`, ['Table name cannot exceed 63 characters']],
    ['1abc', ['Table name must start with a letter and contain only letters, numbers and underscores']],
    ['my-table', ['Table name must start with a letter and contain only letters, numbers and underscores']],
    ['a"; drop table x;--', ['Table name must start with a letter and contain only letters, numbers and underscores']],
    ['tables', ['"tables" is a reserved name; choose another table name']],
    ['Users', ['"Users" is a reserved name; choose another table name']],
    [undefined, ['Table name is required']],
    [5, ['Table name is required']],
  ])('%j', (name, messages) => {
    expect(messagesOf(tableNameSchema.safeParse(name))).toEqual(messages);
  });

  it('reserves the route names of the brief, ignoring case', () => {
    for (const name of ['tables', 'keys', 'auth', 'config', 'stats', 'activity', 'history', 'checkpoints', 'logs']) {
      expect(isReservedTableName(name.toUpperCase())).toBe(true);
    }
    for (const name of ['health', 'user', 'users', 'projects', 'edge_functions', 'secrets', 'billing', 'sql']) {
      expect(RESERVED_TABLE_NAMES).toContain(name);
    }
    for (const name of ['openapi', 'table', 'docs', 'rpc', 'csrf-token', 'edge-functions']) {
      expect(RESERVED_TABLE_NAMES).toContain(name);
    }
    expect(isReservedTableName('todos')).toBe(false);
  });

  it('agrees with the identifier gate on the name rules', () => {
    for (const name of ['abc', 'ab', `a${'b'.repeat(63)}`, '1ab', 'a b', 'naïve', 'a_1']) {
      expect(tableNameSchema.safeParse(name).success).toBe(identifierProblem(name, 'table') === null);
      expect(columnNameSchema.safeParse(name).success).toBe(identifierProblem(name, 'column') === null);
    }
  });
});

describe('columnNameSchema', () => {
  it.each<[string, string[]]>([
    ['x', []],
    [
      '',
      [
        'Column name is required',
        'Column name must start with a letter and contain only letters, numbers and underscores',
      ],
    ],
    [`a${'b'.repeat(63)}`, ['Column name cannot exceed 63 characters']],
    ['_x', ['Column name must start with a letter and contain only letters, numbers and underscores']],
    ['ctid', ['"ctid" is reserved by the database engines; choose another column name']],
    ['RowId', ['"RowId" is reserved by the database engines; choose another column name']],
    ['rowid_copy', []],
  ])('%j', (name, messages) => {
    expect(messagesOf(columnNameSchema.safeParse(name))).toEqual(messages);
  });
});

describe('tableSchemaSchema', () => {
  it('applies flag defaults', () => {
    expect(tableSchemaSchema.parse({ title: { type: 'text' } })).toEqual({
      title: { type: 'text', required: false, unique: false },
    });
  });

  it.each<[string, unknown, string]>([
    [
      'an unknown type',
      { a: { type: 'integer' } },
      'Column type must be one of: text, number, boolean, date, date_only, json, array',
    ],
    [
      'a bad column name',
      { '1a': { type: 'text' } },
      'Column name must start with a letter and contain only letters, numbers and underscores',
    ],
    ['an empty column name', { '': { type: 'text' } }, 'Column name is required'],
    [
      'names equal ignoring case',
      { qty: { type: 'number' }, QTY: { type: 'text' } },
      'Column names must be unique: "QTY" is used twice (names ignore case)',
    ],
    [
      'id as text',
      { id: { type: 'text' } },
      '"id" is a system column (number, required, unique) and cannot be defined or changed',
    ],
    [
      'id not unique',
      { id: { type: 'number', required: true } },
      '"id" is a system column (number, required, unique) and cannot be defined or changed',
    ],
    [
      'ID in capitals',
      { ID: { type: 'number', required: true, unique: true } },
      '"ID" is a system column (number, required, unique) and cannot be defined or changed',
    ],
    [
      'created_at as text',
      { created_at: { type: 'text' } },
      '"created_at" is a system column (date, required) and cannot be defined or changed',
    ],
    ['a flag that is not boolean', { a: { type: 'text', required: 'yes' } }, 'Required must be true or false'],
    ['not an object', ['a'], 'Schema must be an object of columns'],
  ])('refuses %s', (_label, schema, message) => {
    expect(messagesOf(tableSchemaSchema.safeParse(schema))).toContain(message);
  });

  it('accepts the system columns with their exact definitions, and userColumnsOf drops them', () => {
    const schema = tableSchemaSchema.parse({
      id: { type: 'number', required: true, unique: true },
      title: { type: 'text', required: true },
      created_at: { type: 'date', required: true },
    });
    expect(userColumnsOf(schema)).toEqual({ title: { type: 'text', required: true, unique: false } });
  });

  it('refuses more than 500 columns and accepts 100', () => {
    const columns = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`c${i}`, { type: 'text' }]));
    expect(tableSchemaSchema.safeParse(columns(100)).success).toBe(true);
    expect(messagesOf(tableSchemaSchema.safeParse(columns(501)))).toContain('A table can have at most 500 columns');
  });
});

describe('createTableSchema', () => {
  it('accepts the console form: name, description and the id column', () => {
    const parsed = createTableSchema.parse({
      name: 'todos',
      description: 'Things to do',
      schema: { id: { type: 'number', required: true, unique: true }, title: { type: 'text', required: true } },
    });
    expect(parsed.schema.title).toEqual({ type: 'text', required: true, unique: false });
  });

  it('accepts a table whose only column is the id column, and no description', () => {
    expect(
      createTableSchema.safeParse({ name: 'tags', schema: { id: { type: 'number', required: true, unique: true } } })
        .success,
    ).toBe(true);
    expect(
      createTableSchema.safeParse({ name: 'tags', description: null, schema: { a: { type: 'text' } } }).success,
    ).toBe(true);
  });

  it.each<[string, unknown, string]>([
    ['no columns', { name: 'todos', schema: {} }, 'At least one column is required'],
    ['a short name', { name: 'to', schema: { a: { type: 'text' } } }, 'Table name must be at least 3 characters'],
    [
      'a long description',
      { name: 'todos', description: 'x'.repeat(501), schema: { a: { type: 'text' } } },
      'Description cannot exceed 500 characters',
    ],
    ['no name', { schema: { a: { type: 'text' } } }, 'Table name is required'],
  ])('refuses %s', (_label, input, message) => {
    expect(messagesOf(createTableSchema.safeParse(input))).toContain(message);
  });
});

describe('updateTableSchema', () => {
  it('refuses a rename to an engine column name, and takes a rename away from one', () => {
    const schema = { legacy_oid: { type: 'text' } };
    expect(updateTableSchema.safeParse({ schema, renames: { oid: 'legacy_oid' } }).success).toBe(true);
    expect(
      messagesOf(updateTableSchema.safeParse({ schema: { xmax: { type: 'text' } }, renames: { a: 'xmax' } })),
    ).toEqual([
      '"xmax" is reserved by the database engines; choose another column name',
      '"xmax" is reserved by the database engines; choose another column name',
    ]);
  });

  it('takes any subset of name, description, schema and renames', () => {
    expect(updateTableSchema.safeParse({}).success).toBe(true);
    expect(
      updateTableSchema.safeParse({ renames: { qty: 'amount' }, schema: { amount: { type: 'number' } } }).success,
    ).toBe(true);
    expect(updateTableSchema.safeParse({ renames: { qty: '1x' } }).success).toBe(false);
  });
});

describe('findDuplicateName', () => {
  it.each<[string[], string | null]>([
    [[], null],
    [['a', 'b'], null],
    [['a', 'b', 'A'], 'A'],
    [['Qty', 'qty'], 'qty'],
  ])('%j → %j', (names, duplicate) => {
    expect(findDuplicateName(names)).toBe(duplicate);
  });
});
