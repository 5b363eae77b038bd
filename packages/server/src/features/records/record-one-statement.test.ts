import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/database.js';
import { readHistoryCount } from '../../db/history-counts.js';
import { type SignedInAccount, signIn } from '../../testing/tables.fixtures.js';
import { startTestServer, type TestServer, testDialects } from '../../testing/test-server.js';
import { createTable, findTableById, type TableDefinition } from '../tables/tables.service.js';
import type { RecordsChanged } from './record-events.js';
import { countRecords, createRecord, type RecordInput, type RecordRow } from './records.service.js';

// A create of one row on PostgreSQL goes as one statement with its history entry, counts and activity entry
// (Db.writeOnce), its history entry written from the values before PostgreSQL numbers the row. Each row below is
// created that way and, inside a transaction, the usual way: both must leave the same row, the same history
// entry (as text), the same counts and an activity entry each. Values are chosen where a type's text could differ
// after a round trip, and where a user's value looks like the mark that stands for the id.

const SCHEMA = {
  title: { type: 'text', required: true, unique: true },
  qty: { type: 'number' },
  done: { type: 'boolean' },
  due: { type: 'date' },
  note: { type: 'text' },
} as const;

const ROWS: RecordInput[] = [
  { qty: 1.5, done: true, due: '2025-05-01', note: 'plain' },
  { qty: 0.1, done: false, due: '2025-05-01T10:00:00.123456+02:00', note: '😀 ünïcode "quoted" \\ back\\slash' },
  { qty: -0, due: '1999-12-31T23:59:59.999Z', note: '{"id":-9007199254740991,"title":"forged"}' },
  { qty: 1e300, note: "'; DROP TABLE change_history; --" },
  { qty: 5e-324, done: true, note: '$1 $2 || (SELECT 1)' },
  { qty: -9007199254740991, note: null },
  { qty: 123456789.12345679, due: '2024-02-29T00:00:00Z' },
  {},
];

describe.each(testDialects)('a one-row create on %s', (dialect) => {
  let server: TestServer;
  let db: Db;
  let alice: SignedInAccount;
  let table: TableDefinition;
  let oneStatements = 0;
  let n = 0;

  const historyOf = (tableId: number) =>
    db.kysely.selectFrom('change_history').selectAll().where('table_id', '=', tableId).orderBy('id').execute();
  const activityCount = async (accountId: string) =>
    (await db.kysely.selectFrom('activity_logs').select('id').where('account_id', '=', accountId).execute()).length;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    db = server.app.basalt.db;
    const writeOnce = db.writeOnce;
    if (writeOnce) {
      db.writeOnce = (...args) => {
        oneStatements++;
        return writeOnce(...args);
      };
    }
    alice = await signIn(server, 'alice');
    const created = await createTable(db, alice, { name: 'one_statement', schema: SCHEMA });
    table = (await findTableById(db, alice, created.id)) as TableDefinition;
  });
  afterAll(() => server.close());

  it.each(ROWS)('leaves the same row, history entry and counts as the usual way: %j', async (values) => {
    const events: RecordsChanged[] = [];
    const stop = db.bus.subscribe('records.changed', (event) => events.push(event));
    const before = { statements: oneStatements, activity: await activityCount(alice.accountId) };
    const fast = await createRecord(db, alice, table, { title: `fast ${++n}`, ...values });
    const usual = await db.transaction((scope) =>
      createRecord(scope, alice, table, { title: `usual ${n}`, ...values }),
    );
    stop();
    expect(oneStatements - before.statements).toBe(dialect === 'postgres' ? 1 : 0);

    const { id: _fastId, title: _f, created_at: _fc, updated_at: _fu, ...fastValues } = fast;
    const { id: _usualId, title: _u, created_at: _uc, updated_at: _uu, ...usualValues } = usual;
    expect(fastValues).toEqual(usualValues);

    const entries = (await historyOf(table.id)).slice(-2);
    const [fastEntry, usualEntry] = entries;
    expect(fastEntry?.record_id).toBe(fast.id);
    expect(JSON.parse(fastEntry?.new_state ?? 'null')).toEqual(fast);
    expect(JSON.parse(usualEntry?.new_state ?? 'null')).toEqual(usual);
    // The very text, but for what differs by design: the id, the title and the time.
    const shape = (text: string | null | undefined, row: RecordRow) =>
      String(text)
        .replace(`{"id":${row.id},`, '{"id":ID,')
        .replace(JSON.stringify(row.title), '"TITLE"')
        .replaceAll(String(row.created_at), 'AT');
    expect(shape(fastEntry?.new_state, fast)).toBe(shape(usualEntry?.new_state, usual));
    expect(await activityCount(alice.accountId)).toBe(before.activity + 2);

    const created = events.flatMap((event) => event.changes.map((change) => ({ change, event })));
    expect(created.map(({ change }) => change.record?.id)).toEqual([fast.id, usual.id]);
    if (dialect === 'postgres') expect(created[0]?.event.countVersion).toEqual(expect.any(Number));
  });

  it("counts every created row and history entry (and the table's creation)", async () => {
    expect(await countRecords(db, alice, table)).toBe(2 * ROWS.length);
    const kept = await readHistoryCount(db.kysely, { accountId: alice.accountId, tableId: table.id });
    expect(kept).toBe(2 * ROWS.length + 1);
  });

  it('refuses a duplicate unique value with the value named, and writes nothing of it', async () => {
    const before = { history: (await historyOf(table.id)).length, activity: await activityCount(alice.accountId) };
    await expect(createRecord(db, alice, table, { title: 'fast 1' })).rejects.toMatchObject({
      status: 409,
      code: '23505',
      details: { details: 'Key (title)=(fast 1) already exists.' },
    });
    expect(await countRecords(db, alice, table)).toBe(2 * ROWS.length);
    expect((await historyOf(table.id)).length).toBe(before.history);
    expect(await activityCount(alice.accountId)).toBe(before.activity);
  });
});
