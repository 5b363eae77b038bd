import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiScenario, runScenario } from '../../testing/auth.fixtures.js';
import { HistoryTable, historyCall } from '../../testing/history.fixtures.js';
import { type AccountName, type SignedInAccount, signInAll } from '../../testing/tables.fixtures.js';
import { startTestServer, type TestServer, testDialects } from '../../testing/test-server.js';
import { deleteTable } from '../tables/tables.service.js';

// POST /api/history/:id/revert: every kind of change undone (the table is then exactly as before the change),
// the revert undone in turn, and every conflict refused with 409 while nothing changes.

const NOTES = {
  title: { type: 'text', unique: true },
  body: { type: 'text' },
  n: { type: 'number' },
};

interface RevertCase {
  name: string;
  /** What the table holds before the change. */
  prepare?: (t: HistoryTable) => Promise<void>;
  /** The change that is reverted (the table's latest change). */
  change: (t: HistoryTable) => Promise<void>;
  /** The change type the revert records. */
  recorded: string;
}

const seed = async (t: HistoryTable) => {
  await t.insert({ title: 'a', body: 'first', n: 1.5 });
  await t.insert({ title: 'b', body: null, n: -2 });
};

const revertCases: RevertCase[] = [
  {
    name: 'a record creation',
    prepare: seed,
    change: (t) => t.insert({ title: 'c', n: 3 }).then(),
    recorded: 'RECORD_DELETE',
  },
  {
    name: 'a record update',
    prepare: seed,
    change: (t) => t.update(1, { title: 'z', body: 'edited' }).then(),
    recorded: 'RECORD_UPDATE',
  },
  { name: 'a record deletion', prepare: seed, change: (t) => t.remove(2), recorded: 'RECORD_CREATE' },
  {
    name: 'an added column',
    prepare: seed,
    change: (t) => t.changeSchema({ schema: { ...NOTES, extra: { type: 'json' } } }),
    recorded: 'SCHEMA_UPDATE',
  },
  {
    name: 'a dropped column, its data brought back in its place',
    prepare: seed,
    change: (t) => t.changeSchema({ schema: { title: NOTES.title, n: NOTES.n } }),
    recorded: 'SCHEMA_UPDATE',
  },
  {
    name: 'a dropped required, unique column',
    prepare: async (t) => {
      await t.changeSchema({ schema: { ...NOTES, code: { type: 'text' } } });
      await t.insert({ title: 'a', code: 'A-1' });
      await t.insert({ title: 'b', code: 'B-2' });
      await t.changeSchema({ schema: { ...NOTES, code: { type: 'text', required: true, unique: true } } });
    },
    change: (t) => t.changeSchema({ schema: NOTES }),
    recorded: 'SCHEMA_UPDATE',
  },
  {
    name: 'a renamed column',
    prepare: seed,
    change: (t) =>
      t.changeSchema({ schema: { title: NOTES.title, text: NOTES.body, n: NOTES.n }, renames: { body: 'text' } }),
    recorded: 'SCHEMA_UPDATE',
  },
  {
    name: 'a retyped column, its values exactly as they were',
    prepare: async (t) => {
      await t.insert({ title: 'a', body: '0042' });
      await t.insert({ title: 'b', body: '7.50' });
    },
    change: (t) => t.changeSchema({ schema: { ...NOTES, body: { type: 'number' } } }),
    recorded: 'SCHEMA_UPDATE',
  },
  {
    name: 'a renamed and re-described table',
    prepare: seed,
    change: (t) => t.changeSchema({ name: `renamed_${t.id}`, description: 'Now described' }),
    recorded: 'SCHEMA_UPDATE',
  },
  {
    name: 'a deleted table, with the same id and its records',
    prepare: seed,
    change: (t) => deleteTable(t.server.app.basalt.db, t.owner, t.id).then(),
    recorded: 'SCHEMA_CREATE',
  },
];

describe.each(testDialects)('history revert on %s', (dialect) => {
  let server: TestServer;
  let accounts: Record<AccountName, SignedInAccount>;
  let tables = 0;
  const fresh = (schema: Record<string, { type: string; required?: boolean; unique?: boolean }> = NOTES) =>
    HistoryTable.create(server, accounts.alice, `notes_${++tables}`, schema);
  const revert = (changeId: number, as: AccountName | null = 'alice') =>
    historyCall(server, accounts, `/api/history/${changeId}/revert`, as);

  beforeAll(async () => {
    server = await startTestServer(dialect);
    accounts = await signInAll(server);
  });
  afterAll(() => server.close());

  it.each(revertCases)('reverts $name, and reverts the revert', async ({ prepare, change, recorded }) => {
    const t = await fresh();
    await prepare?.(t);
    const before = await t.state();
    await change(t);
    const after = await t.state();
    const changeId = await t.latestChangeId();

    const res = await revert(changeId);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      success: true,
      message: 'Change reverted',
      revertedChangeId: changeId,
      change: { changeType: recorded, tableId: t.id, revertOf: changeId },
    });
    expect(await t.state()).toEqual(before);
    expect(res.body.table?.name ?? null).toBe(before?.name ?? null);

    const again = await revert(res.body.change.id);
    expect(again.status).toBe(200);
    expect(again.body.change.revertOf).toBe(res.body.change.id);
    expect(await t.state()).toEqual(after);
  });

  it('reverts a table creation while it is as created, and brings it back', async () => {
    const t = await fresh();
    const created = await t.state();
    const res = await revert(await t.latestChangeId());
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ change: { changeType: 'SCHEMA_DELETE' }, table: null });
    expect(await t.state()).toBeNull();
    expect((await revert(res.body.change.id)).status).toBe(200);
    expect(await t.state()).toEqual(created);
  });

  it('brings a deleted table back without handing out an id it used before', async () => {
    const t = await fresh();
    for (const title of ['a', 'b', 'c']) await t.insert({ title });
    await t.remove(3);
    const deletedRecord = await t.latestChangeId();
    await deleteTable(server.app.basalt.db, accounts.alice, t.id);
    const history = await t.history();
    expect(history[0]?.changeType).toBe('SCHEMA_DELETE');
    expect((await revert(history[0]?.id ?? 0)).status).toBe(200);
    expect((await t.state())?.rows.map((r) => r.id)).toEqual([1, 2]);
    expect((await t.insert({ title: 'd' })).id).toBe(4);
    expect((await revert(deletedRecord)).status).toBe(200);
    expect((await t.state())?.rows.map((r) => [r.id, r.title])).toEqual([
      [1, 'a'],
      [2, 'b'],
      [3, 'c'],
      [4, 'd'],
    ]);
  });

  it('reverts a change whose later conflicting change was itself reverted', async () => {
    const t = await fresh();
    await t.insert({ title: 'a', n: 1 });
    await t.update(1, { n: 2 });
    const first = await t.latestChangeId();
    await t.update(1, { n: 3 });
    expect((await revert(first)).status).toBe(409);
    expect((await revert(await t.latestChangeId())).status).toBe(200);
    expect((await revert(first)).status).toBe(200);
    expect((await t.state())?.rows[0]).toMatchObject({ n: 1 });
  });

  it('refuses to revert a change twice, naming the revert', async () => {
    const t = await fresh();
    await t.insert({ title: 'a' });
    const change = await t.latestChangeId();
    const first = await revert(change);
    const again = await revert(change);
    expect(again).toMatchObject({
      status: 409,
      body: {
        message: `Cannot revert this change: it was already reverted by change #${first.body.change.id}`,
        details: { reason: 'already_reverted', changeId: change },
      },
    });
    expect((await revert(first.body.change.id)).status).toBe(200);
    expect((await revert(change)).status).toBe(200);
  });

  it('puts back only the columns an update changed', async () => {
    const t = await fresh();
    await t.insert({ title: 'a', body: 'x', n: 1 });
    await t.update(1, { n: 2 });
    const change = await t.latestChangeId();
    await t.update(1, { body: 'y' });
    expect((await revert(change)).status).toBe(200);
    expect((await t.state())?.rows[0]).toMatchObject({ title: 'a', body: 'y', n: 1 });
  });

  interface ConflictCase {
    name: string;
    prepare?: (t: HistoryTable) => Promise<void>;
    change: (t: HistoryTable) => Promise<void>;
    /** The later change that conflicts; `name` is the table's name. */
    later: (t: HistoryTable, name: string) => Promise<void>;
    reason: string;
    message: string;
  }
  const conflicts: ConflictCase[] = [
    {
      name: 'a record changed since',
      prepare: (t) => t.insert({ title: 'a', n: 1 }).then(),
      change: (t) => t.update(1, { n: 2 }).then(),
      later: (t) => t.update(1, { n: 3 }).then(),
      reason: 'record_changed',
      message: 'record 1 of "{table}" was changed after this change ("n")',
    },
    {
      name: 'a created record changed since',
      change: (t) => t.insert({ title: 'a' }).then(),
      later: (t) => t.update(1, { body: 'more' }).then(),
      reason: 'record_changed',
      message: 'record 1 of "{table}" was changed after this change ("body")',
    },
    {
      name: 'a record deleted since',
      prepare: (t) => t.insert({ title: 'a', n: 1 }).then(),
      change: (t) => t.update(1, { n: 2 }).then(),
      later: (t) => t.remove(1),
      reason: 'record_deleted',
      message: 'record 1 of "{table}" was deleted after this change',
    },
    {
      name: 'a unique value taken since (deleted record)',
      prepare: (t) => t.insert({ title: 'a' }).then(),
      change: (t) => t.remove(1),
      later: (t) => t.insert({ title: 'a' }).then(),
      reason: 'unique_taken',
      message: 'the value "a" of "title" is now used by another record of "{table}"',
    },
    {
      name: 'a unique value taken since (updated record)',
      prepare: (t) => t.insert({ title: 'a' }).then(),
      change: (t) => t.update(1, { title: 'b' }).then(),
      later: (t) => t.insert({ title: 'a' }).then(),
      reason: 'unique_taken',
      message: 'the value "a" of "title" is now used by another record of "{table}"',
    },
    {
      name: 'a column dropped since',
      prepare: (t) => t.insert({ title: 'a', body: 'x' }).then(),
      change: (t) => t.update(1, { body: 'y' }).then(),
      later: (t) => t.changeSchema({ schema: { title: NOTES.title, n: NOTES.n } }),
      reason: 'column_missing',
      message: 'column "body" no longer exists in "{table}"',
    },
    {
      name: 'a column made required since',
      prepare: async (t) => {
        await t.insert({ title: 'a' });
        await t.insert({ title: 'b', n: 2 });
      },
      change: (t) => t.remove(1),
      later: (t) => t.changeSchema({ schema: { ...NOTES, n: { type: 'number', required: true } } }),
      reason: 'value_required',
      message: '"n" of "{table}" is now required and the record had no value',
    },
    {
      name: 'a column added since',
      change: (t) => t.changeSchema({ schema: { ...NOTES, a: { type: 'text' } } }),
      later: (t) => t.changeSchema({ schema: { ...NOTES, a: { type: 'text' }, b: { type: 'text' } } }),
      reason: 'table_changed',
      message: `the table "{table}" was changed after this change (column "b" was added); revert the later changes first, or restore this version`,
    },
    {
      name: 'a record without a value for a required column brought back',
      prepare: async (t) => {
        await t.changeSchema({ schema: { ...NOTES, code: { type: 'text' } } });
        await t.insert({ title: 'a', code: 'A' });
        await t.changeSchema({ schema: { ...NOTES, code: { type: 'text', required: true } } });
      },
      change: (t) => t.changeSchema({ schema: NOTES }),
      later: (t) => t.insert({ title: 'b' }).then(),
      reason: 'schema_refused',
      message: 'Column "code" cannot be made required: 1 row has no value.',
    },
    {
      name: 'records added to a created table',
      change: async () => {},
      later: (t) => t.insert({ title: 'a' }).then(),
      reason: 'table_changed',
      message:
        'records of "{table}" were added, changed or deleted after it was created; restore the version of its creation first',
    },
    {
      name: 'a table deleted since',
      prepare: (t) => t.insert({ title: 'a', n: 1 }).then(),
      change: (t) => t.update(1, { n: 2 }).then(),
      later: (t) => deleteTable(t.server.app.basalt.db, t.owner, t.id).then(),
      reason: 'table_deleted',
      message: 'the table "{table}" was deleted after this change; restore it first',
    },
    {
      name: 'a deleted table’s name taken since',
      change: (t) => deleteTable(t.server.app.basalt.db, t.owner, t.id).then(),
      later: (t, name) => HistoryTable.create(t.server, t.owner, name, NOTES).then(),
      reason: 'table_exists',
      message: 'A table named "{table}" already exists',
    },
  ];

  it.each(conflicts)(
    'refuses $name with 409 and changes nothing',
    async ({ prepare, change, later, reason, message }) => {
      const t = await fresh();
      const name = (await t.definition()).name;
      await prepare?.(t);
      await change(t);
      const changeId = await t.latestChangeId();
      await later(t, name);
      const before = await t.state();
      const history = await t.history();
      const res = await revert(changeId);
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({
        code: 'revert_conflict',
        message: `Cannot revert this change: ${message.replaceAll('{table}', name)}`,
        details: { reason, changeId },
      });
      expect(await t.state()).toEqual(before);
      expect(await t.history()).toEqual(history);
    },
  );

  const scenarios: Array<Omit<ApiScenario, 'headers'> & { as?: AccountName | null }> = [
    {
      name: 'a malformed id',
      method: 'POST',
      url: '/api/history/abc/revert',
      status: 404,
      expected: { code: 'change_not_found' },
    },
    { name: 'id zero', method: 'POST', url: '/api/history/0/revert', status: 404 },
    { name: 'an unknown id', method: 'POST', url: '/api/history/987654321/revert', status: 404 },
    { name: 'a huge id', method: 'POST', url: '/api/history/99999999999999999999/restore', status: 404 },
    { name: 'no credentials', method: 'POST', url: '/api/history/1/revert', status: 401, as: null },
    { name: 'restore without credentials', method: 'POST', url: '/api/history/1/restore', status: 401, as: null },
  ];
  it.each(scenarios)('answers $name with $status', async ({ as = 'alice', ...scenario }) => {
    await runScenario(server, { ...scenario, headers: () => (as ? accounts[as].headers : {}) });
  });

  it('answers another account’s change as unknown and changes nothing', async () => {
    const t = await fresh();
    await t.insert({ title: 'a' });
    const changeId = await t.latestChangeId();
    const before = await t.state();
    for (const action of ['revert', 'restore']) {
      const res = await historyCall(server, accounts, `/api/history/${changeId - 1}/${action}`, 'bob');
      expect(res).toMatchObject({ status: 404, body: { code: 'change_not_found' } });
    }
    expect((await revert(changeId, 'bob')).status).toBe(404);
    expect(await t.state()).toEqual(before);
  });
});
