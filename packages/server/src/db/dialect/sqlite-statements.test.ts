import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listRecords } from '../../features/records/record-reads.js';
import { createRecords } from '../../features/records/records.service.js';
import type { TableDefinition } from '../../features/tables/tables.service.js';
import { accountActor } from '../../lib/actor/actor.js';
import { createItemsTable } from '../../testing/records.fixtures.js';
import { type SignedInAccount, signIn } from '../../testing/tables.fixtures.js';
import { startTestServer, type TestServer } from '../../testing/test-server.js';
import type { Db } from '../database.js';
import type { Condition } from '../user-conditions.js';

// A statement kept in the statement cache must not be compiled again each time it runs with new values. SQLite
// recompiles a statement whose bound value might change its plan (an equality under an ORDER BY, on an indexed
// column or a numeric one) when it is given a new value, unless the placeholder is written so that the plan
// cannot depend on it. A recompiled statement that returns rows makes better-sqlite3 build its row constructor
// anew with `Function(…)`: counting those calls counts the recompilations.
async function compilationsDuring(work: () => Promise<unknown>): Promise<number> {
  const original = globalThis.Function;
  let calls = 0;
  globalThis.Function = new Proxy(original, {
    apply(target, thisArg, args) {
      calls++;
      return Reflect.apply(target, thisArg, args);
    },
  });
  try {
    await work();
  } finally {
    globalThis.Function = original;
  }
  return calls;
}

describe('SQLite statements reused with new values', () => {
  let server: TestServer;
  let db: Db;
  let alice: SignedInAccount;
  let table: TableDefinition;

  beforeAll(async () => {
    server = await startTestServer('sqlite');
    db = server.app.basalt.db;
    alice = await signIn(server, 'alice');
    table = await createItemsTable(db, alice);
    const rows = Array.from({ length: 60 }, (_, i) => ({ title: `item ${i}`, qty: i % 6, note: `owner ${i % 3}` }));
    await createRecords(db, accountActor(alice.accountId), table, rows);
  });
  afterAll(() => server.close());

  const page = (where: Condition) =>
    listRecords(db, accountActor(alice.accountId), table, {
      where,
      order: [{ column: 'id', direction: 'desc' }],
      limit: 5,
    });

  it('are compiled once, however often the value changes (a filtered list page in id order)', async () => {
    const byQty = (qty: number) => page({ kind: 'compare', column: 'qty', op: 'eq', value: qty });
    const byNote = (note: string) => page({ kind: 'compare', column: 'note', op: 'eq', value: note });
    // Each statement's first run compiles it; what follows must reuse it.
    await byQty(0);
    await byNote('owner 0');
    const compilations = await compilationsDuring(async () => {
      for (let i = 0; i < 30; i++) {
        expect(await byQty(i % 6)).toHaveLength(5);
        expect(await byNote(`owner ${i % 3}`)).toHaveLength(5);
      }
    });
    expect(compilations).toBe(0);
  });

  it('are compiled once through Kysely too (system tables)', async () => {
    const newest = (accountId: string) =>
      db.kysely
        .selectFrom('change_history')
        .select(['id', 'table_id'])
        .where('account_id', '=', accountId)
        .orderBy('id', 'desc')
        .limit(5)
        .execute();
    expect((await newest(alice.accountId)).length).toBeGreaterThan(0);
    const compilations = await compilationsDuring(async () => {
      for (let i = 0; i < 30; i++) {
        expect((await newest(alice.accountId)).length).toBeGreaterThan(0);
      }
    });
    expect(compilations).toBe(0);
  });
});
