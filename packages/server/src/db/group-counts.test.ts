import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TableDefinition } from '../features/tables/tables.service.js';
import { createItemsTable } from '../testing/records.fixtures.js';
import { type SignedInAccount, signIn } from '../testing/tables.fixtures.js';
import { startTestServer, type TestServer, testDialects } from '../testing/test-server.js';
import type { Db } from './database.js';
import { addToHistoryCount, readHistoryCount } from './history-counts.js';
import { addToRowCount, type RowCountState, type RowCountWrite, readRowCount } from './row-counts.js';

// Writes that arrive together share one commit on SQLite, and their kept counts are summed and written once
// (db/group-counts.ts). The counts must come out as if each write had written its own: only the writes that
// commit count, and the versions they were given are the shard's next ones, one each, none skipped.

describe.each(testDialects)('kept counts of writes committed together on %s', (dialect) => {
  let server: TestServer;
  let db: Db;
  let alice: SignedInAccount;
  let tables: TableDefinition[];

  beforeAll(async () => {
    server = await startTestServer(dialect);
    db = server.app.basalt.db;
    alice = await signIn(server, 'alice');
    tables = [await createItemsTable(db, alice), await createItemsTable(db, alice)];
  });
  afterAll(() => server.close());

  const state = async (table: TableDefinition): Promise<RowCountState> => {
    const read = await readRowCount(db.readRows, db.dialect, table.id);
    if (!read) throw new Error('no count rows');
    return read;
  };
  const historyCount = (table: TableDefinition) =>
    readHistoryCount(db.kysely, { accountId: alice.accountId, tableId: table.id });

  /** A write that adds to the counts and commits, or fails after adding (then nothing of it may count). */
  interface Step {
    table: number;
    rows: number;
    history: number;
    fails?: boolean;
  }

  it('counts only the writes that commit, and gives each its own next version in order', async () => {
    const [first, second] = tables as [TableDefinition, TableDefinition];
    const before = [await state(first), await state(second)];
    const historyBefore = [await historyCount(first), await historyCount(second)];
    // The second table's first writer fails after updating its count: the next writer must update it again.
    const steps: Step[] = [
      { table: 1, rows: 7, history: 7, fails: true },
      { table: 0, rows: 1, history: 1 },
      { table: 0, rows: 5, history: 5, fails: true },
      { table: 1, rows: 2, history: 2 },
      { table: 0, rows: -2, history: 1 },
      { table: 1, rows: 1, history: 1 },
      { table: 0, rows: 3, history: 3 },
      { table: 0, rows: 100, history: 100, fails: true },
    ];
    const grouped: boolean[] = [];
    const results = await Promise.allSettled(
      steps.map((step) =>
        db.transaction(
          async (scope): Promise<RowCountWrite | null> => {
            grouped.push(scope.counts !== null);
            const table = tables[step.table] as TableDefinition;
            await addToHistoryCount(scope, { accountId: alice.accountId, tableId: table.id }, step.history);
            const counted = await addToRowCount(scope, table.id, step.rows);
            if (step.fails) throw new Error('refused');
            return counted;
          },
          { group: true },
        ),
      ),
    );
    // On SQLite they ran in one group, so the group's sums are what this test checks.
    if (dialect === 'sqlite') expect(grouped).toEqual(steps.map(() => true));
    expect(results.map((r) => r.status)).toEqual(steps.map((s) => (s.fails ? 'rejected' : 'fulfilled')));

    for (const [i, table] of [first, second].entries()) {
      const committed = steps.filter((s) => s.table === i && !s.fails);
      const after = await state(table);
      expect(after.rowCount).toBe((before[i] as RowCountState).rowCount + committed.reduce((n, s) => n + s.rows, 0));
      expect(await historyCount(table)).toBe(
        (historyBefore[i] as number) + committed.reduce((n, s) => n + s.history, 0),
      );
      // Per shard, the committed writes hold exactly the versions between the shard's before and after.
      const writes = results.flatMap((r, k) =>
        r.status === 'fulfilled' && steps[k]?.table === i && r.value ? [r.value] : [],
      );
      expect(writes).toHaveLength(committed.length);
      after.versions.forEach((version, shard) => {
        const from = (before[i] as RowCountState).versions[shard] as number;
        const given = writes.filter((w) => w.shard === shard).map((w) => w.version);
        const expected = Array.from({ length: version - from }, (_, k) => from + 1 + k);
        // One SQLite group runs its writes in the order they came, which is the order of their versions.
        expect(dialect === 'sqlite' ? given : [...given].sort((a, b) => a - b)).toEqual(expected);
      });
    }
  });
});
