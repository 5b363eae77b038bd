import { COLUMN_TYPES, type ColumnType, type TableSchema } from '@basalt/shared';
import { describe, expect, it } from 'vitest';
import { changedValue, samplePatch, sampleRecord, sampleStoredRecord, sampleValue, snakeCase } from './record-samples';

const column = (type: ColumnType, required = false, unique = false) => ({ type, required, unique });
const kindOf = (value: unknown) => (Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value);

describe('sample values', () => {
  it.each([
    ['text', 'Example nickname'],
    ['number', 42],
    ['boolean', true],
    ['date', '2025-01-15'],
    ['json', { source: 'api', version: 1 }],
    ['array', ['first', 'second']],
  ] as const)('gives a %s column without a telling name a value of its type', (type, expected) => {
    expect(sampleValue('nickname', type)).toEqual(expected);
  });

  it.each([
    ['email', 'text', 'ada@example.com'],
    ['workEmail', 'text', 'ada@example.com'],
    ['website_url', 'text', 'https://example.com'],
    ['first_name', 'text', 'Ada'],
    ['name', 'text', 'Ada Lovelace'],
    ['title', 'text', 'Hello from the API'],
    ['unit_price', 'number', 19.99],
    ['qty', 'number', 3],
    ['age', 'number', 36],
    ['due_at', 'date', '2025-01-15T09:30:00.000Z'],
    ['birthday', 'date', '1990-12-10'],
    ['tags', 'array', ['new', 'featured']],
    ['shippingAddress', 'json', { street: '12 St James Square', city: 'London' }],
  ] as const)('reads what %s holds from its name', (name, type, expected) => {
    expect(sampleValue(name, type)).toEqual(expected);
  });

  it('matches whole words only, so a name that merely contains a hint keeps the default', () => {
    expect(sampleValue('usage', 'number')).toBe(42);
    expect(sampleValue('page_count', 'number')).toBe(3);
    expect(sampleValue('emailed', 'boolean')).toBe(true);
    expect(sampleValue('template', 'number')).toBe(42);
  });

  it('reads odd names: single letters, capitals, digits, keywords of other languages', () => {
    expect(sampleValue('x', 'text')).toBe('Example x');
    expect(sampleValue('SKU', 'text')).toBe('SKU-0001');
    expect(sampleValue('HTTPStatus', 'text')).toBe('active');
    expect(sampleValue('line2', 'text')).toBe('Example line2');
    expect(sampleValue('class', 'text')).toBe('Example class');
    expect(sampleValue('from', 'number')).toBe(42);
    expect(snakeCase('orderTotalUSD')).toBe('order_total_usd');
    expect(snakeCase('HTTPStatus')).toBe('http_status');
  });

  it('changes every type to a different value for an update', () => {
    for (const type of COLUMN_TYPES) {
      const changed = changedValue('field', type);
      expect(changed, type).not.toEqual(sampleValue('field', type));
      expect(kindOf(changed), type).toBe(kindOf(sampleValue('field', type)));
    }
    expect(changedValue('due_at', 'date')).toBe('2025-02-01T12:00:00.000Z');
    expect(changedValue('qty', 'number')).toBe(4);
    expect(changedValue('tags', 'array')).toEqual(['new', 'featured', 'updated']);
  });
});

describe('sample records', () => {
  const schema: TableSchema = {
    id: column('number', true, true),
    title: column('text', true),
    done: column('boolean'),
    created_at: column('date', true),
  };

  it('fills every user column and leaves the system columns to the server', () => {
    expect(sampleRecord(schema)).toEqual({ title: 'Hello from the API', done: true });
  });

  it('patches the first user column only, and nothing for a table without columns of its own', () => {
    expect(samplePatch(schema)).toEqual({ title: 'Hello from the API (updated)' });
    expect(samplePatch({ id: column('number', true, true) })).toEqual({});
    expect(sampleRecord({})).toEqual({});
  });

  it('answers a stored record with the id first and the timestamps last', () => {
    expect(Object.keys(sampleStoredRecord(schema, 7))).toEqual(['id', 'title', 'done', 'created_at', 'updated_at']);
    expect(sampleStoredRecord(schema, 7).id).toBe(7);
  });

  it('answers a date column as the API does: a timestamp, while the request sends the day', () => {
    const withDate = { ...schema, due: column('date') };
    expect(sampleRecord(withDate).due).toBe('2025-01-15');
    expect(sampleStoredRecord(withDate).due).toBe('2025-01-15T00:00:00.000Z');
  });
});

describe('sample dates (issue 35: the docs showed a date where the API answers a timestamp)', () => {
  it('answers a date column as a timestamp and a date_only column as the date sent', () => {
    const schema: TableSchema = {
      birthday: { type: 'date_only', required: false, unique: false },
      joined: { type: 'date', required: false, unique: false },
    };
    const sent = sampleRecord(schema);
    expect(sent).toEqual({ birthday: '1990-12-10', joined: '2025-01-15' });
    const answered = sampleStoredRecord(schema, 1, sent);
    expect(answered.birthday).toBe('1990-12-10');
    expect(answered.joined).toBe('2025-01-15T00:00:00.000Z');
  });
});
