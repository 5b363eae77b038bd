import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HistoryTable, historyCall, type TableState } from '../../testing/history.fixtures.js';
import { type AccountName, type SignedInAccount, signInAll } from '../../testing/tables.fixtures.js';
import { startTestServer, type TestServer, testDialects } from '../../testing/test-server.js';

// The property that makes history trustworthy: after any sequence of record and schema changes, restoring to
// the k-th change gives exactly the table as it was just after it (definition and records), restoring to the
// latest change changes nothing, and a restore is undone by restoring to the change that was latest before it.
// Runs and sequences are kept short so that each engine takes a few seconds.

const COLUMN_TYPES = ['text', 'number', 'boolean', 'json'] as const;

type Op =
  | { kind: 'create'; seed: number }
  | { kind: 'update'; pick: number; seed: number }
  | { kind: 'delete'; pick: number }
  | { kind: 'addColumn'; type: (typeof COLUMN_TYPES)[number] }
  | { kind: 'dropColumn'; pick: number }
  | { kind: 'renameColumn'; pick: number };

const seedArb = fc.nat({ max: 1000 });
const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('create' as const), seed: seedArb }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('update' as const), pick: fc.nat(), seed: seedArb }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }) },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('addColumn' as const), type: fc.constantFrom(...COLUMN_TYPES) }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('dropColumn' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('renameColumn' as const), pick: fc.nat() }) },
);

// A value for a column of the given type, derived from a seed (every fifth one is null).
function valueFor(type: string, seed: number): unknown {
  if (seed % 5 === 0) return null;
  switch (type) {
    case 'number':
      return seed / 4 - 50;
    case 'boolean':
      return seed % 2 === 0;
    case 'json':
      return { seed, list: [seed, String(seed)] };
    default:
      return `v${seed}`;
  }
}

// Applies one operation to the table as it is now; returns false when it does not apply (nothing to update).
async function apply(t: HistoryTable, op: Op, names: { next: number }): Promise<boolean> {
  const state = (await t.state()) as TableState;
  const columns = Object.entries(state.schema);
  const row = state.rows.length > 0 ? state.rows[('pick' in op ? op.pick : 0) % state.rows.length] : undefined;
  switch (op.kind) {
    case 'create':
      await t.insert(Object.fromEntries(columns.map(([name, def], i) => [name, valueFor(def.type, op.seed + i)])));
      return true;
    case 'update': {
      const [name, def] = columns[op.seed % columns.length] ?? [];
      if (!row || !name || !def) return false;
      await t.update(row.id, { [name]: valueFor(def.type, op.seed + 1) });
      return true;
    }
    case 'delete':
      if (!row) return false;
      await t.remove(row.id);
      return true;
    case 'addColumn':
      await t.changeSchema({ schema: { ...state.schema, [`c${names.next++}`]: { type: op.type } } });
      return true;
    case 'dropColumn': {
      if (columns.length < 2) return false;
      const dropped = columns[op.pick % columns.length]?.[0];
      await t.changeSchema({ schema: Object.fromEntries(columns.filter(([name]) => name !== dropped)) });
      return true;
    }
    case 'renameColumn': {
      const from = columns[op.pick % columns.length]?.[0] ?? '';
      const to = `r${names.next++}`;
      const schema = Object.fromEntries(columns.map(([name, def]) => [name === from ? to : name, def]));
      await t.changeSchema({ schema, renames: { [from]: to } });
      return true;
    }
  }
}

describe.each(testDialects)('history restore property on %s', (dialect) => {
  let server: TestServer;
  let accounts: Record<AccountName, SignedInAccount>;
  let tables = 0;
  const restore = (changeId: number) => historyCall(server, accounts, `/api/history/${changeId}/restore`);

  beforeAll(async () => {
    server = await startTestServer(dialect);
    accounts = await signInAll(server);
  });
  afterAll(() => server.close());

  it('restoring to change k gives the table as it was just after change k', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(opArb, { minLength: 1, maxLength: 12 }),
        fc.array(fc.nat(), { minLength: 1, maxLength: 2 }),
        async (ops, picks) => {
          const t = await HistoryTable.create(server, accounts.alice, `prop_${++tables}`, {
            c0: { type: 'text' },
            c1: { type: 'number' },
          });
          const names = { next: 2 };
          const snapshots = [{ changeId: await t.latestChangeId(), state: await t.state() }];
          for (const op of ops) {
            if (await apply(t, op, names))
              snapshots.push({ changeId: await t.latestChangeId(), state: await t.state() });
          }

          for (const pick of picks) {
            const target = snapshots[pick % snapshots.length] as (typeof snapshots)[number];
            const before = await t.state();
            const res = await restore(target.changeId);
            expect(res.status, res.text).toBe(200);
            expect(await t.state()).toEqual(target.state);
            if (res.body.undoChangeId !== null) {
              expect((await restore(res.body.undoChangeId)).status).toBe(200);
              expect(await t.state()).toEqual(before);
            }
          }

          const latest = await t.latestChangeId();
          const state = await t.state();
          const res = await restore(latest);
          expect(res.body).toMatchObject({ reverted: 0, undoChangeId: null });
          expect(await t.latestChangeId()).toBe(latest);
          expect(await t.state()).toEqual(state);
        },
      ),
      { numRuns: dialect === 'postgres' ? 15 : 25 },
    );
  });
});
