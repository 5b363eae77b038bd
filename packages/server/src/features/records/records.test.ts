import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../../db/database.js';
import { createItemsTable } from '../../testing/records.fixtures.js';
import { type SignedInAccount, signIn } from '../../testing/tables.fixtures.js';
import { startTestServer, type TestServer, testDialects } from '../../testing/test-server.js';
import type { TableDefinition } from '../tables/tables.service.js';
import type { RecordChange } from './record-events.js';
import {
  countRecords,
  createRecord,
  createRecords,
  deleteRecords,
  getRecord,
  listRecords,
  recordIdCondition,
  updateRecords,
  upsertRecords,
} from './records.service.js';

// [column, value sent, value read back] — and [column, value sent, status, code] for refusals.
const accepted: Array<[string, unknown, unknown]> = [
  ['qty', 1.5, 1.5],
  ['qty', -0, 0],
  ['qty', 1e300, 1e300],
  ['done', true, true],
  ['done', false, false],
  ['due', '2025-05-01', '2025-05-01T00:00:00.000Z'],
  ['due', '2025-05-01T10:00:00+02:00', '2025-05-01T08:00:00.000Z'],
  ['meta', { a: [1, { b: null }] }, { a: [1, { b: null }] }],
  ['meta', 'just text', 'just text'],
  ['meta', 42, 42],
  ['tags', ['a', 1, true], ['a', 1, true]],
  ['tags', [], []],
  ['note', "'; DROP TABLE accounts; --", "'; DROP TABLE accounts; --"],
  ['note', 'Robert"); DELETE FROM t_1; --', 'Robert"); DELETE FROM t_1; --'],
  ['note', null, null],
];
const refused: Array<[string, unknown, number, string]> = [
  ['qty', '12', 400, '22P02'],
  ['qty', 'abc', 400, '22P02'],
  ['done', 1, 400, '22P02'],
  ['done', 'true', 400, '22P02'],
  ['due', 'yesterday', 400, '22P02'],
  ['due', '2025-02-30', 400, '22P02'],
  ['tags', { a: 1 }, 400, '22P02'],
  ['tags', '[1,2]', 400, '22P02'],
  ['note', 5, 400, '22P02'],
  ['nope', 'x', 400, 'PGRST204'],
  ['"; DROP TABLE x; --', 'x', 400, 'PGRST204'],
  ['title', null, 400, '23502'],
];

describe.each(testDialects)('records service on %s', (dialect) => {
  let server: TestServer;
  let db: Db;
  let alice: SignedInAccount;
  let bob: SignedInAccount;
  let table: TableDefinition;
  let n = 0;
  const title = () => `item ${++n}`;

  const historyOf = (tableId: number) =>
    db.kysely.selectFrom('change_history').selectAll().where('table_id', '=', tableId).orderBy('id').execute();
  const activityOf = (accountId: string) =>
    db.kysely.selectFrom('activity_logs').selectAll().where('account_id', '=', accountId).orderBy('id').execute();

  beforeAll(async () => {
    server = await startTestServer(dialect);
    db = server.app.basalt.db;
    alice = await signIn(server, 'alice');
    bob = await signIn(server, 'bob');
  });
  afterAll(() => server.close());
  beforeEach(async () => {
    table = await createItemsTable(db, alice);
  });

  it.each(accepted)('accepts %s = %j', async (column, value, stored) => {
    const row = await createRecord(db, alice, table, { title: title(), [column]: value });
    expect(row[column]).toEqual(stored);
    expect((await getRecord(db, alice, table, row.id))?.[column]).toEqual(stored);
  });

  it.each(refused)('refuses %s = %j', async (column, value, status, code) => {
    await expect(createRecord(db, alice, table, { title: title(), [column]: value })).rejects.toMatchObject({
      status,
      code,
    });
    expect(await countRecords(db, alice, table)).toBe(0);
  });

  it('reads rows back in schema order with system columns, booleans as booleans', async () => {
    const row = await createRecord(db, alice, table, { title: 'x', done: true });
    expect(Object.keys(row)).toEqual([
      'id',
      'title',
      'qty',
      'done',
      'due',
      'meta',
      'tags',
      'note',
      'created_at',
      'updated_at',
    ]);
    expect(row.done).toBe(true);
    expect(row.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('requires required columns and names the column', async () => {
    await expect(createRecord(db, alice, table, { qty: 1 })).rejects.toMatchObject({
      status: 400,
      code: '23502',
      message: `null value in column "title" of relation "${table.name}" violates not-null constraint`,
    });
  });

  it('refuses a duplicate of a unique column with 409 naming the column', async () => {
    await createRecord(db, alice, table, { title: 'same' });
    const error = await createRecord(db, alice, table, { title: 'same' }).catch((e) => e);
    expect(error).toMatchObject({
      status: 409,
      code: '23505',
      message: `duplicate key value violates unique constraint "${table.name}_title_key"`,
    });
    // Never the SQL name `t_<id>` (the user's table name itself may contain "t_").
    expect(error.message).not.toMatch(/\bt_\d+/);
    const dupId = await createRecord(db, alice, table, { id: 1, title: 'other' }).catch((e) => e);
    expect(dupId).toMatchObject({
      status: 409,
      message: `duplicate key value violates unique constraint "${table.name}_pkey"`,
    });
  });

  it('takes explicit ids and continues numbering after them', async () => {
    await createRecord(db, alice, table, { id: 50, title: 'fifty' });
    const next = await createRecord(db, alice, table, { title: 'next' });
    expect(next.id).toBe(51);
    await expect(createRecord(db, alice, table, { id: 1.5, title: 'x' })).rejects.toMatchObject({ status: 400 });
  });

  it('ignores created_at and updated_at sent by the client', async () => {
    const row = await createRecord(db, alice, table, { title: 'x', created_at: '2000-01-01', updated_at: 'nonsense' });
    expect(row.created_at).not.toContain('2000');
  });

  it('converts form input, whose values are text, per column type', async () => {
    const row = await createRecord(
      db,
      alice,
      table,
      { title: 'form', qty: ' 12.5 ', done: 'false', due: '2025-01-02', meta: '{"a":1}', tags: '["x"]', note: '' },
      { from: 'form' },
    );
    expect(row).toMatchObject({ qty: 12.5, done: false, meta: { a: 1 }, tags: ['x'], note: null });
    const kept = await createRecord(db, alice, table, { title: 'form2', meta: 'not json' }, { from: 'form' });
    expect(kept.meta).toBe('not json');
    await expect(
      createRecord(db, alice, table, { title: 'form3', qty: 'ten' }, { from: 'form' }),
    ).rejects.toMatchObject({ code: '22P02' });
    const [cleared] = await updateRecords(
      db,
      alice,
      table,
      recordIdCondition(row.id),
      { qty: '', note: '' },
      { from: 'form' },
    );
    expect(cleared).toMatchObject({ qty: null, note: '' });
  });

  it('writes history and activity with the write, and emits events after commit', async () => {
    const events: RecordChange[] = [];
    const stop = db.bus.subscribe('records.changed', (event) => events.push(...event.changes));
    const rows = await createRecords(db, alice, table, [{ title: 'a' }, { title: 'b', qty: 1 }]);
    await updateRecords(db, alice, table, recordIdCondition(rows[0]?.id ?? 0), { qty: 9 });
    await deleteRecords(db, alice, table, recordIdCondition(rows[1]?.id ?? 0));
    stop();
    const history = await historyOf(table.id);
    expect(history.map((h) => [h.change_type, Number(h.record_id)])).toEqual([
      ['SCHEMA_CREATE', 0],
      ['RECORD_CREATE', rows[0]?.id],
      ['RECORD_CREATE', rows[1]?.id],
      ['RECORD_UPDATE', rows[0]?.id],
      ['RECORD_DELETE', rows[1]?.id],
    ]);
    const update = history[3];
    expect(JSON.parse(update?.previous_state ?? '{}')).toMatchObject({ title: 'a', qty: null });
    expect(JSON.parse(update?.new_state ?? '{}')).toMatchObject({ title: 'a', qty: 9 });
    expect(history[4]?.new_state).toBeNull();
    const activity = (await activityOf(alice.accountId)).filter((a) => a.resource === `table.${table.name}`);
    expect(activity.map((a) => [a.action, JSON.parse(a.details ?? '{}')])).toEqual([
      ['CREATE', { tableName: table.name, count: 2 }],
      ['UPDATE', { tableName: table.name }],
      ['DELETE', { tableName: table.name }],
    ]);
    expect(events.map((e) => e.type)).toEqual(['INSERT', 'INSERT', 'UPDATE', 'DELETE']);
    expect(events[2]?.oldRecord?.qty).toBeNull();
  });

  it('leaves no row, no history and no activity when a bulk insert fails in the middle', async () => {
    await createRecord(db, alice, table, { title: 'taken' });
    const before = {
      history: (await historyOf(table.id)).length,
      activity: (await activityOf(alice.accountId)).length,
    };
    const events: RecordChange[] = [];
    const stop = db.bus.subscribe('records.changed', (event) => events.push(...event.changes));
    await expect(
      createRecords(db, alice, table, [{ title: 'new 1' }, { title: 'taken' }, { title: 'new 2' }]),
    ).rejects.toMatchObject({ status: 409 });
    stop();
    expect((await listRecords(db, alice, table)).map((r) => r.title)).toEqual(['taken']);
    expect((await historyOf(table.id)).length).toBe(before.history);
    expect((await activityOf(alice.accountId)).length).toBe(before.activity);
    expect(events).toEqual([]);
  });

  it('rolls back a write that beforeCommit refuses', async () => {
    const refusal = new Error('not exactly one');
    await expect(
      createRecords(db, alice, table, [{ title: 'a' }, { title: 'b' }], {
        beforeCommit: (rows) => {
          if (rows.length !== 1) throw refusal;
        },
      }),
    ).rejects.toBe(refusal);
    expect(await countRecords(db, alice, table)).toBe(0);
  });

  it('updates and deletes by condition, and refuses nulls in required columns', async () => {
    await createRecords(db, alice, table, [
      { title: 'a', qty: 1 },
      { title: 'b', qty: 2 },
      { title: 'c', qty: 3 },
    ]);
    const updated = await updateRecords(
      db,
      alice,
      table,
      { kind: 'compare', column: 'qty', op: 'gte', value: 2 },
      { done: true },
    );
    expect(updated.map((r) => [r.title, r.done])).toEqual([
      ['b', true],
      ['c', true],
    ]);
    await expect(updateRecords(db, alice, table, undefined, { title: null })).rejects.toMatchObject({ code: '23502' });
    await expect(updateRecords(db, alice, table, undefined, { title: 'a' })).rejects.toMatchObject({ status: 409 });
    const deleted = await deleteRecords(db, alice, table, { kind: 'is', column: 'done', value: null });
    expect(deleted.map((r) => r.title)).toEqual(['a']);
    expect(await updateRecords(db, alice, table, recordIdCondition(999), { qty: 1 })).toEqual([]);
  });

  it('upserts on id and on a unique column, merging or ignoring duplicates', async () => {
    const [a] = await createRecords(db, alice, table, [{ title: 'a', qty: 1 }]);
    const merged = await upsertRecords(db, alice, table, [
      { id: a?.id, title: 'a', qty: 2 },
      { title: 'b', qty: 3 },
    ]);
    expect(merged.map((r) => [r.title, r.qty])).toEqual([
      ['a', 2],
      ['b', 3],
    ]);
    const byTitle = await upsertRecords(db, alice, table, [{ title: 'b', qty: 30 }], { onConflict: 'title' });
    expect(byTitle).toMatchObject([{ title: 'b', qty: 30 }]);
    const ignored = await upsertRecords(db, alice, table, [{ title: 'b', qty: 99 }, { title: 'c' }], {
      onConflict: 'title',
      ignoreDuplicates: true,
    });
    expect(ignored.map((r) => r.title)).toEqual(['c']);
    expect((await listRecords(db, alice, table)).map((r) => [r.title, r.qty])).toEqual([
      ['a', 2],
      ['b', 30],
      ['c', null],
    ]);
    const types = (await historyOf(table.id)).map((h) => h.change_type).slice(1);
    expect(types).toEqual(['RECORD_CREATE', 'RECORD_UPDATE', 'RECORD_CREATE', 'RECORD_UPDATE', 'RECORD_CREATE']);
    await expect(
      upsertRecords(db, alice, table, [{ title: 'x', qty: 1 }], { onConflict: 'qty' }),
    ).rejects.toMatchObject({ code: '42P10' });
    await expect(
      upsertRecords(db, alice, table, [{ title: 'x' }, { title: 'x' }], { onConflict: 'title' }),
    ).rejects.toMatchObject({ code: '21000' });
  });

  it('inserts only the listed columns, as PostgREST does with columns=', async () => {
    await expect(
      createRecords(db, alice, table, [{ title: 'a' }], { columns: ['title', 'bogus'] }),
    ).rejects.toMatchObject({ code: 'PGRST204' });
    const rows = await createRecords(db, alice, table, [{ title: 'a', qty: 1, note: 'ignored' }, { title: 'b' }], {
      columns: ['title', 'qty'],
    });
    expect(rows.map((r) => [r.qty, r.note])).toEqual([
      [1, null],
      [null, null],
    ]);
  });

  it('never reaches another account’s table', async () => {
    await expect(listRecords(db, bob, table)).rejects.toMatchObject({ status: 404 });
    await expect(createRecord(db, bob, table, { title: 'x' })).rejects.toMatchObject({ status: 404 });
    await expect(deleteRecords(db, bob, table, undefined)).rejects.toMatchObject({ status: 404 });
  });

  it('inserts 1,000 rows of a bulk in chunks', async () => {
    const rows = Array.from({ length: 1000 }, (_, i) => ({ title: `bulk ${i}`, qty: i, tags: [i] }));
    const written = await createRecords(db, alice, table, rows);
    expect(written).toHaveLength(1000);
    expect(written[999]).toMatchObject({ title: 'bulk 999', qty: 999, tags: [999] });
    expect(await countRecords(db, alice, table)).toBe(1000);
  });
});
