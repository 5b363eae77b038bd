import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/database.js';
import { readHistoryCount } from '../../db/history-counts.js';
import { readRowCount } from '../../db/row-counts.js';
import { createItemsTable } from '../../testing/records.fixtures.js';
import { type SignedInAccount, signIn } from '../../testing/tables.fixtures.js';
import { startTestServer, type TestServer, testDialects } from '../../testing/test-server.js';
import type { TableDefinition } from '../tables/tables.service.js';
import type { RecordChange, RecordsChanged } from './record-events.js';
import {
  countRecords,
  createRecord,
  deleteRecords,
  listRecords,
  recordIdCondition,
  updateRecords,
} from './records.service.js';
import { countRows } from './records.store.js';

// Writes that arrive together may be committed together (SQLite's group commit, db/dialect/sqlite-group-commit.ts).
// Each must still be its own unit: a failing write changes nothing and fails alone, the others commit with
// their history and activity, and every caller hears back only after its write is committed.

describe.each(testDialects)('concurrent record writes on %s', (dialect) => {
  let server: TestServer;
  let db: Db;
  let alice: SignedInAccount;
  let table: TableDefinition;

  const historyOf = (tableId: number) =>
    db.kysely.selectFrom('change_history').selectAll().where('table_id', '=', tableId).orderBy('id').execute();
  const activityOf = (accountId: string, resource: string) =>
    db.kysely
      .selectFrom('activity_logs')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('resource', '=', resource)
      .execute();

  beforeAll(async () => {
    server = await startTestServer(dialect);
    db = server.app.basalt.db;
    alice = await signIn(server, 'alice');
    table = await createItemsTable(db, alice);
  });
  afterAll(() => server.close());

  it('commits every good write and fails only the bad ones, each with its own history and activity', async () => {
    const titles = Array.from({ length: 30 }, (_, i) => `c${i}`);
    // Two duplicates of c3 (unique), one missing title (required), one beforeCommit that refuses.
    const attempts = [
      ...titles.map((title) => createRecord(db, alice, table, { title, qty: 1 })),
      createRecord(db, alice, table, { title: 'c3' }),
      createRecord(db, alice, table, { title: 'c3' }),
      createRecord(db, alice, table, { qty: 2 }),
      createRecord(
        db,
        alice,
        table,
        { title: 'refused' },
        {
          beforeCommit: () => {
            throw new Error('refused before commit');
          },
        },
      ),
    ];
    const results = await Promise.allSettled(attempts);
    // Which of the three `c3` wins depends on the engine's order (PostgreSQL runs them in parallel).
    const failures = results
      .filter((r): r is PromiseRejectedResult => r.status === 'rejected')
      .map((r) => r.reason.code ?? r.reason.message)
      .sort();
    expect(failures).toEqual(['23502', '23505', '23505', 'refused before commit']);

    const rows = await listRecords(db, alice, table);
    expect(rows.map((r) => r.title).sort()).toEqual([...titles].sort());
    const history = (await historyOf(table.id)).filter((h) => h.change_type.startsWith('RECORD_'));
    const byRecord = history
      .map((h) => [h.change_type, Number(h.record_id)])
      .sort((a, b) => Number(a[1]) - Number(b[1]));
    expect(byRecord).toEqual(rows.map((r) => ['RECORD_CREATE', r.id]));
    expect(await activityOf(alice.accountId, `table.${table.name}`)).toHaveLength(30);
  });

  it('keeps row and history counts exact, and each event its own next count version, across two tables', async () => {
    const other = await createItemsTable(db, alice);
    const both = [table, other];
    const versionsOf = async (t: TableDefinition) => (await readRowCount(db.readRows, db.dialect, t.id))?.versions;
    const before = await Promise.all(both.map(versionsOf));
    const events: RecordsChanged[] = [];
    const stop = db.bus.subscribe('records.changed', (event) => events.push(event));
    try {
      const writes = await Promise.allSettled([
        createRecord(db, alice, other, { title: 'o1' }),
        createRecord(db, alice, table, { title: 'n1' }),
        createRecord(db, alice, other, { title: 'o1' }),
        deleteRecords(db, alice, table, { kind: 'compare', column: 'title', op: 'eq', value: 'c1' }),
        createRecord(db, alice, table, { qty: 3 }),
        createRecord(db, alice, other, { title: 'o2' }),
        deleteRecords(db, alice, other, { kind: 'compare', column: 'title', op: 'eq', value: 'o1' }),
        createRecord(db, alice, table, { title: 'n2' }),
      ]);
      // One `o1` fails (which one depends on the engine's order), and the record without a title.
      expect(writes.filter((w) => w.status === 'rejected')).toHaveLength(2);
      expect(writes[4]?.status).toBe('rejected');
    } finally {
      stop();
    }
    for (const [i, t] of both.entries()) {
      expect(await countRecords(db, alice, t)).toBe(await countRows(db.readRows, db.dialect, t, undefined));
      const entries = await db.kysely
        .selectFrom('change_history')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('table_id', '=', t.id)
        .executeTakeFirstOrThrow();
      expect(await readHistoryCount(db.kysely, { accountId: alice.accountId, tableId: t.id })).toBe(Number(entries.n));
      // Every committed write's event holds one of the versions its shard moved through, each once.
      const after = (await versionsOf(t)) ?? [];
      const heard = events.filter((e) => e.tableId === t.id);
      after.forEach((version, shard) => {
        const from = before[i]?.[shard] ?? 0;
        const given = heard.filter((e) => e.countShard === shard).map((e) => e.countVersion ?? 0);
        expect(given.sort((a, b) => a - b)).toEqual(Array.from({ length: version - from }, (_, k) => from + 1 + k));
      });
    }
  });

  it('answers each caller after its write is committed and emits events only for committed writes', async () => {
    const events: RecordChange[] = [];
    const stop = db.bus.subscribe('records.changed', (event) => events.push(...event.changes));
    try {
      const [first] = await listRecords(db, alice, table, { limit: 1 });
      const id = first?.id ?? 0;
      const writes = await Promise.allSettled([
        updateRecords(db, alice, table, recordIdCondition(id), { qty: 5 }),
        // Another account's write is refused on its own.
        updateRecords(db, { accountId: 'someone-else' }, table, recordIdCondition(id), { qty: 6 }),
        deleteRecords(db, alice, table, { kind: 'compare', column: 'title', op: 'eq', value: 'c29' }),
        createRecord(db, alice, table, { title: 'late' }),
      ]);
      expect(writes.map((w) => w.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
      // Once answered, each write is visible to a plain read.
      const after = await listRecords(db, alice, table);
      expect(after.find((r) => r.id === id)?.qty).toBe(5);
      expect(after.some((r) => r.title === 'c29')).toBe(false);
      expect(after.some((r) => r.title === 'late')).toBe(true);
      expect(events.map((e) => e.type).sort()).toEqual(['DELETE', 'INSERT', 'UPDATE']);
    } finally {
      stop();
    }
  });
});
