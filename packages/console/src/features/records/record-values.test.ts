import type { TableSchema } from '@basalt/shared';
import { describe, expect, it } from 'vitest';
import {
  buildCreatePayload,
  buildUpdatePayload,
  editableColumns,
  formatCellValue,
  fromFormValue,
  initialFormValues,
  parseStructuredText,
  toFormValue,
  validateRecordValues,
} from './record-values';

const schema: TableSchema = {
  id: { type: 'number', required: true, unique: true },
  title: { type: 'text', required: true, unique: false },
  price: { type: 'number', required: false, unique: false },
  in_stock: { type: 'boolean', required: false, unique: false },
  released: { type: 'date', required: false, unique: false },
  meta: { type: 'json', required: false, unique: false },
  tags: { type: 'array', required: false, unique: false },
};

const empty = { title: '', price: '', in_stock: '', released: '', meta: '', tags: '' };

describe('editableColumns', () => {
  it('skips the id column and keeps the order', () => {
    expect(editableColumns(schema).map(([name]) => name)).toEqual([
      'title',
      'price',
      'in_stock',
      'released',
      'meta',
      'tags',
    ]);
  });
});

describe('fromFormValue', () => {
  it.each([
    ['number', '9.5', 9.5],
    ['number', '-3', -3],
    ['number', '', ''],
    ['boolean', 'true', true],
    ['boolean', 'false', false],
    ['boolean', '', ''],
    ['date', '2025-05-01', '2025-05-01'],
    ['json', '{"a": 1}', { a: 1 }],
    ['json', '42', 42],
    ['json', 'plain words', 'plain words'],
    ['array', '["a", 2]', ['a', 2]],
    ['array', '[not json', '[not json'],
    ['text', '{"a": 1}', '{"a": 1}'],
  ] as const)('%s %j → %j', (type, raw, expected) => {
    expect(fromFormValue(type, raw)).toEqual(expected);
  });
});

describe('buildCreatePayload', () => {
  it('converts every type and drops empty fields', () => {
    expect(
      buildCreatePayload(schema, {
        ...empty,
        title: 'Widget',
        price: '12.5',
        in_stock: 'false',
        released: '2025-05-01',
        meta: '{"color": "red"}',
        tags: '["a", "b"]',
      }),
    ).toEqual({
      title: 'Widget',
      price: 12.5,
      in_stock: false,
      released: '2025-05-01',
      meta: { color: 'red' },
      tags: ['a', 'b'],
    });
    expect(buildCreatePayload(schema, { ...empty, title: 'Only a title' })).toEqual({ title: 'Only a title' });
  });

  it('keeps JSON text that does not parse, and never sends the id', () => {
    expect(buildCreatePayload(schema, { ...empty, id: '7', title: 'x', meta: '{broken', tags: '[1,' })).toEqual({
      title: 'x',
      meta: '{broken',
      tags: '[1,',
    });
  });

  it('keeps text columns exactly as typed, braces included', () => {
    expect(buildCreatePayload(schema, { ...empty, title: '{"not": "parsed"}' })).toEqual({
      title: '{"not": "parsed"}',
    });
  });
});

describe('parseStructuredText', () => {
  it('parses text wrapped in braces or brackets, and keeps anything else', () => {
    expect(parseStructuredText(' {"a": [1]} ')).toEqual({ a: [1] });
    expect(parseStructuredText('[1, 2]')).toEqual([1, 2]);
    expect(parseStructuredText('{oops}')).toBe('{oops}');
    expect(parseStructuredText('hello')).toBe('hello');
  });
});

describe('buildUpdatePayload', () => {
  it('sends every column, an emptied field as null', () => {
    expect(buildUpdatePayload(schema, { ...empty, title: 'Widget', price: '3', in_stock: 'true' })).toEqual({
      title: 'Widget',
      price: 3,
      in_stock: true,
      released: null,
      meta: null,
      tags: null,
    });
  });
});

describe('toFormValue and initialFormValues', () => {
  it('shows stored values in their inputs', () => {
    expect(
      initialFormValues(schema, {
        id: 1,
        title: 'Widget',
        price: 12,
        in_stock: false,
        released: '2025-05-01T00:00:00.000Z',
        meta: { color: 'red' },
        tags: null,
      }),
    ).toEqual({
      title: 'Widget',
      price: '12',
      in_stock: 'false',
      released: '2025-05-01',
      meta: '{\n  "color": "red"\n}',
      tags: '',
    });
    expect(initialFormValues(schema)).toEqual(empty);
    expect(toFormValue('boolean', true)).toBe('true');
    expect(toFormValue('json', 'kept as text')).toBe('kept as text');
  });
});

describe('validateRecordValues', () => {
  it('uses the server messages for a missing required value, a bad number and a non-array', () => {
    expect(validateRecordValues(schema, { ...empty, price: 'abc', tags: '{"a": 1}' })).toEqual({
      title: '"title" is required',
      price: '"price" must be a number',
      tags: '"tags" must be a JSON array',
    });
    expect(validateRecordValues(schema, { ...empty, title: 'ok', meta: '{"a": [1, null]}', tags: '[]' })).toEqual({});
    expect(validateRecordValues(schema, { ...empty, title: 'ok', meta: '"a JSON string"' })).toEqual({});
  });

  it('refuses text a json column cannot hold as JSON, instead of storing it as a string', () => {
    for (const meta of ['{"a":', 'raw text', "{'a': 1}", '[1,]']) {
      expect(validateRecordValues(schema, { ...empty, title: 'ok', meta })).toEqual({
        meta: '"meta" must be valid JSON',
      });
    }
  });
});

describe('formatCellValue', () => {
  it('shows objects as JSON text, null as empty, and midnight dates as the day', () => {
    expect(formatCellValue({ a: 1 })).toBe('{"a":1}');
    expect(formatCellValue(['a'])).toBe('["a"]');
    expect(formatCellValue(null)).toBe('');
    expect(formatCellValue(undefined)).toBe('');
    expect(formatCellValue(false)).toBe('false');
    expect(formatCellValue('2025-05-01T00:00:00.000Z', 'date')).toBe('2025-05-01');
    expect(formatCellValue('2025-05-01T10:30:00.000Z', 'date')).toBe('2025-05-01T10:30:00.000Z');
  });
});
