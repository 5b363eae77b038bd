import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/database.js';
import { createItemsTable } from '../../testing/records.fixtures.js';
import { type SignedInAccount, signIn } from '../../testing/tables.fixtures.js';
import { startTestServer, type TestServer, testDialects } from '../../testing/test-server.js';
import type { TableDefinition } from '../tables/tables.service.js';
import type { RecordChange } from './record-events.js';
import { createRecord, deleteRecords, listRecords, recordIdCondition, updateRecords } from './records.service.js';

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
