import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recountRowCount } from '../../db/row-counts.js';
import type { Condition } from '../../db/user-conditions.js';
import { HistoryTable, historyCall } from '../../testing/history.fixtures.js';
import { type AccountName, type SignedInAccount, signInAll } from '../../testing/tables.fixtures.js';
import { startTestServer, type TestServer, testDialects } from '../../testing/test-server.js';
import { findTableById } from '../tables/tables.service.js';
import { checkCondition } from './record-conditions.js';
import { countStats } from './record-counts.js';
import { countRecords, deleteRecords, updateRecords } from './records.service.js';
import { countRows } from './records.store.js';

// The property that makes a kept count trustworthy: after any sequence of creates, updates and deletes (one
// record or many), history reverts and restores, and schema changes, every count the API calls exact equals a
// real count(*) — for filters Basalt follows through the writes and for those it counts again. Counts are read
// between the writes so that the cache has something to follow.

const QTY = [null, 0, 5, 10, 100, 499, 500, 501, 900] as const;
const TAG = [null, 'a', 'b', 'c'] as const;
const FLAG = [null, true, false] as const;
const META = [null, { k: 1 }, { k: 2 }] as const;

const FILTERS: Array<Condition | undefined> = [
  undefined,
  { kind: 'compare', column: 'qty', op: 'gt', value: 500 },
  { kind: 'compare', column: 'qty', op: 'lte', value: 10 },
  { kind: 'compare', column: 'qty', op: 'isdistinct', value: 5 },
  { kind: 'compare', column: 'tag', op: 'eq', value: 'a' },
  { kind: 'compare', column: 'tag', op: 'neq', value: 'b' },
  { kind: 'is', column: 'flag', value: true },
  { kind: 'is', column: 'qty', value: null },
  { kind: 'in', column: 'tag', values: ['a', 'c', null] },
  {
    kind: 'or',
    conditions: [
      { kind: 'compare', column: 'qty', op: 'lt', value: 100 },
      { kind: 'compare', column: 'flag', op: 'eq', value: false },
    ],
  },
  { kind: 'not', condition: { kind: 'compare', column: 'qty', op: 'gt', value: 500 } },
  { kind: 'compare', column: 'id', op: 'gt', value: 3 },
  // Not evaluable in JavaScript: counted again after each write.
  { kind: 'pattern', column: 'tag', op: 'like', pattern: 'a%' },
  { kind: 'contains', column: 'meta', op: 'cs', value: { k: 1 } },
  { kind: 'compare', column: 'created_at', op: 'gt', value: '2000-01-01T00:00:00.000Z' },
];

type Op =
  | { kind: 'create'; seeds: number[] }
  | { kind: 'update'; pick: number; seed: number }
  | { kind: 'updateMany'; above: number; seed: number }
  | { kind: 'delete'; pick: number }
  | { kind: 'deleteMany'; above: number }
  | { kind: 'revert'; pick: number }
  | { kind: 'restore'; pick: number }
  | { kind: 'addColumn' };

const seed = fc.nat({ max: 10_000 });
const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('create' as const),
      seeds: fc.array(seed, { minLength: 1, maxLength: 4 }),
    }),
  },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('update' as const), pick: fc.nat(), seed }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('updateMany' as const),
      above: fc.constantFrom(0, 5, 10, 100, 499, 500, 501, 900),
      seed,
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }) },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('deleteMany' as const), above: fc.constantFrom(100, 500, 900) }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('revert' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('restore' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'addColumn' as const }) },
);

const pick = <T>(list: readonly T[], n: number): T => list[n % list.length] as T;
const valuesOf = (n: number) => ({
  qty: pick(QTY, n),
  tag: pick(TAG, Math.floor(n / 9)),
  flag: pick(FLAG, Math.floor(n / 36)),
  meta: pick(META, Math.floor(n / 108)),
});

describe.each(testDialects)('exact counts on %s', (dialect) => {
  let server: TestServer;
  let accounts: Record<AccountName, SignedInAccount>;
  let tables = 0;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    accounts = await signInAll(server);
  });
  afterAll(() => server.close());

  const db = () => server.app.basalt.db;

  async function expectExactCounts(t: HistoryTable) {
    const table = await t.definition();
    for (const filter of FILTERS) {
      const real = await countRows(
        db().readRows,
        db().dialect,
        table,
        filter && checkCondition(db().dialect, table, filter),
      );
      const kept = await countRecords(db(), accounts.alice, table, filter);
      expect(kept, JSON.stringify(filter)).toBe(real);
    }
  }

  async function apply(t: HistoryTable, op: Op, columns: { next: number }) {
    const table = await t.definition();
    const rows = (await t.state())?.rows ?? [];
    const row = rows.length > 0 ? pick(rows, 'pick' in op ? op.pick : 0) : undefined;
    const alice = accounts.alice;
    switch (op.kind) {
      case 'create':
        for (const s of op.seeds) await t.insert(valuesOf(s));
        return;
      case 'update':
        if (row) await t.update(row.id, valuesOf(op.seed));
        return;
      case 'updateMany':
        await updateRecords(
          db(),
          alice,
          table,
          { kind: 'compare', column: 'qty', op: 'gte', value: op.above },
          {
            flag: pick(FLAG, op.seed),
            tag: pick(TAG, op.seed),
          },
        );
        return;
      case 'delete':
        if (row) await t.remove(row.id);
        return;
      case 'deleteMany':
        await deleteRecords(db(), alice, table, { kind: 'compare', column: 'qty', op: 'gt', value: op.above });
        return;
      case 'revert':
      case 'restore': {
        // Reverting the table's creation would drop it: that one is left alone.
        const history = (await t.history()).filter((c) => op.kind === 'restore' || c.changeType !== 'SCHEMA_CREATE');
        if (history.length === 0) return;
        const change = pick(history, op.pick);
        // A revert may be refused (a conflict, a change already undone): the counts must be exact either way.
        await historyCall(server, accounts, `/api/history/${change.id}/${op.kind}`);
        return;
      }
      case 'addColumn':
        await t.changeSchema({ schema: { ...table.schema, [`extra${columns.next++}`]: { type: 'text' } } });
        return;
    }
  }

  it('keeps every exact count equal to count(*) through writes, reverts and restores', async () => {
    const before = { ...countStats(db()) };
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 14 }), async (ops) => {
        const t = await HistoryTable.create(server, accounts.alice, `counts_${++tables}`, {
          qty: { type: 'number' },
          tag: { type: 'text' },
          flag: { type: 'boolean' },
          meta: { type: 'json' },
        });
        const columns = { next: 0 };
        await expectExactCounts(t);
        for (const op of ops) {
          await apply(t, op, columns);
          await expectExactCounts(t);
        }
        // Restoring to the table's first change empties it: every count reads 0.
        const history = await t.history();
        const first = history.at(-1);
        if (first) await historyCall(server, accounts, `/api/history/${first.id}/restore`);
        if (await findTableById(db(), accounts.alice, t.id)) await expectExactCounts(t);
      }),
      { numRuns: dialect === 'postgres' ? 12 : 25 },
    );
    // The evaluable filters were followed through writes, not only counted again.
    expect(countStats(db()).followed).toBeGreaterThan(before.followed);
    expect(countStats(db()).hits).toBeGreaterThan(before.hits);
  }, 120_000);

  it('stays exact under concurrent writes and counts', async () => {
    const t = await HistoryTable.create(server, accounts.alice, 'counts_concurrent', {
      qty: { type: 'number' },
      tag: { type: 'text' },
      flag: { type: 'boolean' },
      meta: { type: 'json' },
    });
    for (let i = 0; i < 20; i++) await t.insert(valuesOf(i * 7));
    await expectExactCounts(t);
    const table = await t.definition();
    const over500: Condition = { kind: 'compare', column: 'qty', op: 'gt', value: 500 };
    const work = Array.from({ length: 120 }, async (_, i) => {
      if (i % 4 === 0) return countRecords(db(), accounts.alice, table, over500);
      if (i % 4 === 1) return t.insert(valuesOf(i * 13));
      if (i % 4 === 2)
        return updateRecords(
          db(),
          accounts.alice,
          table,
          { kind: 'compare', column: 'id', op: 'eq', value: (i % 20) + 1 },
          valuesOf(i),
        );
      return deleteRecords(db(), accounts.alice, table, { kind: 'compare', column: 'id', op: 'eq', value: i });
    });
    await Promise.all(work);
    await expectExactCounts(t);
  }, 60_000);

  it('counts rows loaded outside Basalt once recounted (basalt recount)', async () => {
    const t = await HistoryTable.create(server, accounts.alice, 'counts_loaded', {
      qty: { type: 'number' },
      tag: { type: 'text' },
      flag: { type: 'boolean' },
      meta: { type: 'json' },
    });
    await t.insert(valuesOf(900));
    await expectExactCounts(t);
    // Rows written straight into the real table: Basalt's kept counts cannot know of them.
    await sql.raw(`INSERT INTO "t_${t.id}" (qty, tag) VALUES (600, 'a'), (700, 'b'), (1, 'c')`).execute(db().kysely);
    await db()
      .kysely.transaction()
      .execute((trx) => recountRowCount(trx, db().dialect, t.id));
    await expectExactCounts(t);
  });
});
