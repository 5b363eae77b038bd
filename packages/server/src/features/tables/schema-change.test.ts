import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type SignedInAccount, signIn } from '../../testing/tables.fixtures.js';
import { startTestServer, type TestServer, testDialects } from '../../testing/test-server.js';
import { createRecords, listRecords } from '../records/records.service.js';
import { findTableById } from './tables.service.js';

type Schema = Record<string, { type: string; required?: boolean; unique?: boolean }>;

const base: Schema = {
  title: { type: 'text', required: true, unique: true },
  qty: { type: 'text' },
  done: { type: 'boolean' },
  tags: { type: 'array' },
};
const seed = [
  { title: 'a', qty: '10', done: true, tags: ['x'] },
  { title: 'b', qty: '2.5', done: null, tags: null },
  { title: 'c', qty: 'many', done: true, tags: ['x', 'y'] },
];

// Each row: the new schema (and renames), then either the status and message of a refusal, or the schema
// and rows the table ends with. A refused change must leave the table exactly as it was.
const cases: Array<{
  name: string;
  schema: Schema;
  renames?: Record<string, string>;
  refused?: [number, string];
  rows?: Array<Record<string, unknown>>;
}> = [
  {
    name: 'adds an optional unique column',
    schema: { ...base, note: { type: 'text', unique: true } },
    rows: [{ title: 'a', note: null }],
  },
  {
    name: 'refuses a new required column on a non-empty table',
    schema: { ...base, note: { type: 'text', required: true } },
    refused: [
      409,
      'Column "note" cannot be added as required: the table already has 3 rows and the new column has no value for them.',
    ],
  },
  {
    name: 'drops a column and its data',
    schema: { title: { type: 'text', required: true, unique: true }, qty: { type: 'text' } },
    rows: [{ title: 'a', qty: '10' }],
  },
  {
    name: 'renames a column, keeping its data',
    schema: {
      title: { type: 'text', required: true, unique: true },
      qty: { type: 'text' },
      done: { type: 'boolean' },
      labels: { type: 'array' },
    },
    renames: { tags: 'labels' },
    rows: [{ title: 'a', labels: ['x'] }],
  },
  {
    name: 'renames a unique column, keeping it unique',
    schema: {
      name: { type: 'text', required: true, unique: true },
      qty: { type: 'text' },
      done: { type: 'boolean' },
      tags: { type: 'array' },
    },
    renames: { title: 'name' },
    rows: [{ name: 'a' }],
  },
  {
    name: 'refuses a retype some values cannot take, naming the count',
    schema: { ...base, qty: { type: 'number' } },
    refused: [409, 'Column "qty" cannot be changed from text to number: 1 row has a value that cannot be converted.'],
  },
  {
    name: 'retypes a column whose values all convert',
    schema: { ...base, done: { type: 'text' } },
    rows: [
      { title: 'a', done: 'true' },
      { title: 'b', done: null },
    ],
  },
  { name: 'retypes array to json', schema: { ...base, tags: { type: 'json' } }, rows: [{ title: 'a', tags: ['x'] }] },
  {
    name: 'refuses to make a column with NULLs required',
    schema: { ...base, done: { type: 'boolean', required: true } },
    refused: [409, 'Column "done" cannot be made required: 1 row has no value.'],
  },
  {
    name: 'makes a full column required',
    schema: { ...base, qty: { type: 'text', required: true } },
    rows: [{ title: 'a', qty: '10' }],
  },
  {
    name: 'makes a required column optional',
    schema: { ...base, title: { type: 'text', unique: true } },
    rows: [{ title: 'a' }],
  },
  {
    name: 'refuses to make a column with duplicates unique',
    schema: {
      ...base,
      tags: { type: 'array', unique: true },
      done: { type: 'boolean', unique: true },
      qty: { type: 'text', unique: true },
    },
    refused: [409, 'Column "done" cannot be made unique: 2 rows have a value that another row also has.'],
  },
  { name: 'drops a unique flag', schema: { ...base, title: { type: 'text', required: true } }, rows: [{ title: 'a' }] },
  {
    name: 'refuses a change of a system column',
    schema: { ...base, created_at: { type: 'text' } },
    refused: [400, '"created_at" is a system column (date, required) and cannot be defined or changed'],
  },
  {
    name: 'refuses a rename of a missing column',
    schema: base,
    renames: { nope: 'title' },
    refused: [400, 'Column "nope" cannot be renamed: the table has no such column'],
  },
];

describe.each(testDialects)('schema changes on %s', (dialect) => {
  let server: TestServer;
  let alice: SignedInAccount;
  let tableId: number;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    alice = await signIn(server, 'alice');
  });
  afterAll(() => server.close());

  beforeEach(async () => {
    const created = await server.request('POST', '/api/tables', {
      headers: alice.headers,
      json: { name: `t${Math.random().toString(36).slice(2, 10)}`, schema: base },
    });
    tableId = created.body.id;
    const table = await findTableById(server.app.basalt.db, alice, tableId);
    if (!table) throw new Error('table missing');
    await createRecords(server.app.basalt.db, alice, table, seed);
  });

  const state = async () => {
    const db = server.app.basalt.db;
    const table = await findTableById(db, alice, tableId);
    if (!table) throw new Error('table missing');
    return { schema: table.schema, rows: await listRecords(db, alice, table) };
  };

  it.each(cases)('$name', async ({ schema, renames, refused, rows }) => {
    const before = await state();
    const clean = schema;
    const res = await server.request('PUT', `/api/tables/${tableId}/schema`, {
      headers: alice.headers,
      json: { schema: clean, renames },
    });
    if (refused) {
      const [status, message] = refused;
      expect(res.status).toBe(status);
      expect(res.body.message).toBe(message);
      expect(await state()).toEqual(before);
      return;
    }
    expect(res.status).toBe(200);
    const after = await state();
    expect(Object.keys(after.schema)).toEqual(Object.keys(clean));
    expect(after.rows).toHaveLength(3);
    for (const expected of rows ?? []) {
      const key = Object.keys(expected)[0] as string;
      expect(after.rows.find((r) => r[key] === expected[key])).toMatchObject(expected);
    }
  });

  it('keeps unique and required flags enforced after a change', async () => {
    const res = await server.request('PUT', `/api/tables/${tableId}/schema`, {
      headers: alice.headers,
      json: { schema: { ...base, qty: { type: 'text', required: true, unique: true } } },
    });
    expect(res.status).toBe(200);
    const db = server.app.basalt.db;
    const table = await findTableById(db, alice, tableId);
    if (!table) throw new Error('table missing');
    await expect(createRecords(db, alice, table, [{ title: 'd', qty: '10' }])).rejects.toMatchObject({
      status: 409,
      code: '23505',
    });
    await expect(createRecords(db, alice, table, [{ title: 'e' }])).rejects.toMatchObject({
      status: 400,
      code: '23502',
    });
    const [row] = await createRecords(db, alice, table, [{ title: 'f', qty: '11' }]);
    expect(row).toMatchObject({ title: 'f', qty: '11', done: null });
  });

  it('previews a change without making it', async () => {
    const res = await server.request('POST', `/api/tables/${tableId}/schema/preview`, {
      headers: alice.headers,
      json: { schema: { ...base, qty: { type: 'number' }, extra: { type: 'text' } } },
    });
    expect(res.status).toBe(200);
    expect(res.body.changes).toEqual([
      'Change "qty" from text to number (every existing value must convert)',
      'Add column "extra" (text)',
    ]);
    expect(res.body.refusal).toEqual({
      message: 'Column "qty" cannot be changed from text to number: 1 row has a value that cannot be converted.',
      column: 'qty',
    });
    expect(Object.keys((await state()).schema)).toEqual(Object.keys(base));
  });
});
