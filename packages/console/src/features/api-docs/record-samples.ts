import { type ColumnDefinition, type ColumnType, isSystemColumnName, type TableSchema } from '@basalt/shared';

// Sample values for the docs pages' examples: one per column, of the column's type, chosen from the column's
// name where the name says what it holds (email, price, tags…), so that an example reads like real data and the
// server accepts it as it is (DESIGN.md "Data": the accepted input of each type). Every value is fixed, so a
// table always documents the same way.

/** SampleValue is a JSON value an example sends or receives. */
export type SampleValue = string | number | boolean | null | SampleValue[] | { [key: string]: SampleValue };

/** SampleRecord is an example body: column name to value. */
export type SampleRecord = Record<string, SampleValue>;

type Hint = readonly [RegExp, SampleValue];

// `words` matches whole words of a snake_case name: "email" matches work_email but not emailed.
const words = (...alternatives: string[]) => new RegExp(`(^|_)(${alternatives.join('|')})(_|$)`);

// The first hint whose pattern matches the column's name (in snake_case, lower case) wins.
const TEXT_HINTS: readonly Hint[] = [
  [words('email', 'mail'), 'ada@example.com'],
  [words('url', 'link', 'website', 'homepage', 'site'), 'https://example.com'],
  [words('phone', 'mobile', 'tel'), '+1 555 0100'],
  [/^(first|given)_?name$/, 'Ada'],
  [/^((last|family)_?name|surname)$/, 'Lovelace'],
  [/^(user_?name|login|handle)$/, 'ada_l'],
  [/^((full|display|author|customer|contact|owner|user)_)?name$/, 'Ada Lovelace'],
  [words('title', 'subject', 'headline'), 'Hello from the API'],
  [words('status', 'state'), 'active'],
  [words('color', 'colour'), 'teal'],
  [words('country'), 'GB'],
  [words('city'), 'London'],
  [words('sku', 'code'), 'SKU-0001'],
  [
    words('description', 'body', 'content', 'note', 'notes', 'comment', 'message', 'summary'),
    'Written with the record API',
  ],
];

const NUMBER_HINTS: readonly Hint[] = [
  [words('price', 'amount', 'total', 'subtotal', 'cost', 'balance', 'fee', 'salary'), 19.99],
  [words('qty', 'quantity', 'count', 'stock', 'units'), 3],
  [words('age'), 36],
  [words('rating', 'score', 'stars'), 4.5],
  [words('year'), 2025],
  [words('percent', 'ratio', 'rate'), 0.25],
  [/^lat(itude)?$/, 51.5072],
  [/^(lng|lon|longitude)$/, -0.1276],
];

const DATE_TIME = '2025-01-15T09:30:00.000Z';
const DATE_HINTS: readonly Hint[] = [
  [/(_at|(^|_)(time|timestamp))$/, DATE_TIME],
  [words('birthday', 'birth', 'dob'), '1990-12-10'],
];

const ARRAY_HINTS: readonly Hint[] = [
  [words('tags', 'tag', 'labels', 'categories'), ['new', 'featured']],
  [words('emails', 'recipients'), ['ada@example.com', 'grace@example.com']],
];

const JSON_HINTS: readonly Hint[] = [
  [words('address', 'location'), { street: '12 St James Square', city: 'London' }],
  [words('settings', 'preferences', 'options', 'config'), { theme: 'dark', notifications: true }],
];

const DEFAULTS: Record<Exclude<ColumnType, 'text'>, SampleValue> = {
  number: 42,
  boolean: true,
  date: '2025-01-15',
  date_only: '2025-01-15',
  json: { source: 'api', version: 1 },
  array: ['first', 'second'],
};

const HINTS: Record<ColumnType, readonly Hint[]> = {
  text: TEXT_HINTS,
  number: NUMBER_HINTS,
  boolean: [],
  date: DATE_HINTS,
  date_only: [[words('birthday', 'birth', 'dob'), '1990-12-10']],
  json: JSON_HINTS,
  array: ARRAY_HINTS,
};

/** snakeCase turns a column name into lower-case words joined by underscores (orderTotal → order_total). */
export function snakeCase(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .toLowerCase();
}

/** sampleValue is an example value for a column: of its type, and fitting its name where the name says. */
export function sampleValue(column: string, type: ColumnType): SampleValue {
  const name = snakeCase(column);
  const hinted = HINTS[type].find(([pattern]) => pattern.test(name))?.[1];
  if (hinted !== undefined) return hinted;
  return type === 'text' ? `Example ${name.replace(/_+/g, ' ').trim()}` : DEFAULTS[type];
}

/** changedValue is a second value for a column, different from its sample: what an update example sends. */
export function changedValue(column: string, type: ColumnType): SampleValue {
  const sample = sampleValue(column, type);
  switch (type) {
    case 'text':
      return `${sample} (updated)`;
    case 'number':
      return typeof sample === 'number' ? sample + 1 : 1;
    case 'boolean':
      return !sample;
    case 'date':
      return typeof sample === 'string' && sample.includes('T') ? '2025-02-01T12:00:00.000Z' : '2025-02-01';
    case 'date_only':
      return '2025-02-01';
    case 'json':
      return {
        ...(typeof sample === 'object' && sample !== null && !Array.isArray(sample) ? sample : {}),
        updated: true,
      };
    case 'array':
      return [...(Array.isArray(sample) ? sample : []), 'updated'];
  }
}

/** userColumns are a schema's own columns, in order: everything but the system columns (id, created_at, updated_at). */
export function userColumns(schema: TableSchema): Array<[string, ColumnDefinition]> {
  return Object.entries(schema).filter(([name]) => !isSystemColumnName(name));
}

/** sampleRecord is a create body: a sample value for every user column. */
export function sampleRecord(schema: TableSchema): SampleRecord {
  return Object.fromEntries(userColumns(schema).map(([name, { type }]) => [name, sampleValue(name, type)]));
}

/** samplePatch is a PATCH body: a changed value for the first user column (empty for a table without one). */
export function samplePatch(schema: TableSchema): SampleRecord {
  const [first] = userColumns(schema);
  return first ? { [first[0]]: changedValue(first[0], first[1].type) } : {};
}

/** SAMPLE_TIMESTAMP is the created_at and updated_at of the records in example responses. */
export const SAMPLE_TIMESTAMP = DATE_TIME;

/** sampleStoredRecord is a record as the API answers it: id first, the columns, then the timestamps. */
export function sampleStoredRecord(
  schema: TableSchema,
  id = 1,
  values: SampleRecord = sampleRecord(schema),
): SampleRecord {
  // A date column answers a timestamp (a day is stored as its midnight UTC), so the answer shows one.
  const answered = Object.fromEntries(
    Object.entries(values).map(([name, value]) =>
      schema[name]?.type === 'date' && typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)
        ? [name, `${value}T00:00:00.000Z`]
        : [name, value],
    ),
  );
  return { id, ...answered, created_at: SAMPLE_TIMESTAMP, updated_at: SAMPLE_TIMESTAMP };
}
