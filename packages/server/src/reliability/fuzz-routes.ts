import fc from 'fast-check';
import { type Credentials, type GeneratedBody, hostileValue, idSegment, objectOf } from './fuzz-inputs.js';

// What the API fuzz test sends: the shape of one fuzzed route, the fuzzed account's table and the inputs its
// routes read (names, schemas, rows). The routes themselves come from the route table (fuzz-table-routes.ts);
// what the table cannot say of a route is its hint (fuzz-table-routes.ts, fuzz-auth-routes.ts).

/** KnownIds are the ids of the fuzzed account's things, read when a request is generated. */
export interface KnownIds {
  tables: () => string[];
  keys: () => string[];
  changes: () => string[];
  checkpoints: () => string[];
  /** Only the second user: the first one's account must survive the admin routes. */
  users: () => string[];
}

/** RouteSpec is one route: verbs, a path (ids filled in), a query string, a body and the usual caller. */
export interface RouteSpec {
  methods: string[];
  path: fc.Arbitrary<string>;
  query?: fc.Arbitrary<string>;
  body?: fc.Arbitrary<GeneratedBody>;
  as: Credentials;
  /** How often the route is picked against the others of its family (default 1). */
  weight?: number;
}

/** RouteHint is what the fuzz test knows of a route beyond the table: its body, query, parameters, caller, weight. */
export interface RouteHint {
  body?: RouteSpec['body'];
  query?: RouteSpec['query'];
  params?: Record<string, fc.Arbitrary<string>>;
  /** as is who usually calls the route, when its admission steps cannot say (an /auth/v1 route's apikey). */
  as?: Credentials;
  weight?: number;
  /** skip says why a route is not fuzzed (it replaces the whole instance; its faults have their own tests). */
  skip?: string;
}

/** ITEMS is the fuzzed account's table: a column of every type, the title unique. */
export const ITEMS = {
  name: 'items',
  schema: {
    title: { type: 'text', unique: true },
    qty: { type: 'number' },
    done: { type: 'boolean' },
    due: { type: 'date' },
    meta: { type: 'json' },
    tags: { type: 'array' },
  },
} as const;

export const COLUMNS = ['id', ...Object.keys(ITEMS.schema), 'created_at', 'updated_at'];

export const email = fc.oneof(
  fc.constantFrom('fuzz@example.com', 'FUZZ@EXAMPLE.COM', 'a@b', '@', 'a@b.c'),
  fc.emailAddress(),
);
export const password = fc.constantFrom('Fuzz-Passw0rd!', 'short', '', 'x'.repeat(200));
const name = fc.constantFrom('fuzz_one', 'fuzz_two', 'items', 'Items', 'tables', 'ab', 'a'.repeat(64), '1abc', 'a-b');
const columnName = fc.constantFrom('title', 'qty', 'x', 'id', 'ID', 'ctid', 'rowid', '', '1x', 'a b', 'created_at');
const column = objectOf({
  type: fc.constantFrom('text', 'number', 'boolean', 'date', 'json', 'array', 'money'),
  required: fc.boolean(),
  unique: fc.boolean(),
});
const schema = fc.dictionary(columnName, fc.oneof(column, hostileValue), { maxKeys: 4 });
export const tableBody = objectOf({ name, description: fc.string({ maxLength: 20 }), schema });
export const schemaChange = objectOf({
  name,
  description: fc.string(),
  schema,
  renames: fc.dictionary(columnName, columnName),
});

const fields = {
  title: fc.string({ maxLength: 20 }),
  qty: fc.oneof(fc.integer(), fc.double()),
  done: fc.boolean(),
  due: fc.constantFrom('2025-01-01', '2025-01-01T10:00:00Z', '2025-01-01T10:00:00.123+05:30'),
  meta: fc.jsonValue({ maxDepth: 2 }),
  tags: fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }),
};
// Mostly rows a table takes (so that writes happen and what follows them runs), sometimes with an id, a
// server column, an unknown column or a value of the wrong kind.
export const record = fc.oneof(
  { arbitrary: fc.record(fields, { requiredKeys: [] }), weight: 2 },
  {
    arbitrary: objectOf({
      ...fields,
      due: fc.constantFrom('yesterday', '2025-02-30', '2025-01-01T25:00:00Z'),
      id: fc.integer({ min: -2, max: 60 }),
      created_at: fc.constant('2000-01-01T00:00:00Z'),
      unknown: fc.string(),
    }),
    weight: 1,
  },
);
// Rows of a bulk insert need the same keys (or `columns=`): mostly they have them.
export const records = fc.oneof(
  record,
  fc.array(fc.record(fields), { minLength: 1, maxLength: 4 }),
  fc.array(record, { maxLength: 4 }),
);

export const segment = fc.constantFrom(
  '%00',
  '%2e%2e',
  '%ZZ',
  '%F0%9F%94%A5',
  'x'.repeat(300),
  'a%20b',
  'ITEMS',
  'rpc',
);

export const literal = (path: string) => fc.constant(path);
export const withId = (prefix: string, ids: () => string[], suffix = '') =>
  idSegment(ids).map((id) => `${prefix}/${id}${suffix}`);
