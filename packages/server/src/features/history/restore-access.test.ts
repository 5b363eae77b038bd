import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiScenario, runScenario } from '../../testing/auth.fixtures.js';
import { HistoryTable, historyCall } from '../../testing/history.fixtures.js';
import { type AccountName, type SignedInAccount, signInAll } from '../../testing/tables.fixtures.js';
import { startTestServer, type TestServer, testDialects } from '../../testing/test-server.js';

// A restore and the access rules (issue 35): the preview says what the rules become, a restore may keep
// today's rules ({keepAccess: true}), and without it the rules are reverted like any other change.

const ITEMS = { title: { type: 'text', required: true } };
const NOBODY = { select: 'nobody', insert: 'nobody', update: 'nobody', delete: 'nobody', ownerColumn: null };
const READABLE = { ...NOBODY, select: 'authenticated' };

describe.each(testDialects)('restores and access rules on %s', (dialect) => {
  let server: TestServer;
  let accounts: Record<AccountName, SignedInAccount>;
  let tables = 0;
  const fresh = () => HistoryTable.create(server, accounts.alice, `ruled_${++tables}`, ITEMS);
  const checkpoint = async (t: HistoryTable) =>
    (await historyCall(server, accounts, '/api/checkpoints', 'alice', { tableId: t.id, name: 'cp' })).body;
  const preview = (path: string, as: AccountName = 'alice') =>
    server.request('GET', path, { headers: accounts[as].headers });
  const accessOf = async (t: HistoryTable) => (await t.definition()).access ?? NOBODY;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    accounts = await signInAll(server);
  });
  afterAll(() => server.close());

  it('previews the rules a checkpoint’s restore would bring back, and says when they do not change', async () => {
    const t = await fresh();
    const before = await checkpoint(t);
    await t.changeSchema({ access: READABLE });
    await t.insert({ title: 'a' });
    const after = await checkpoint(t);

    const res = await preview(`/api/checkpoints/${before.id}/restore-preview`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      tableId: t.id,
      changeId: before.changeId,
      access: { current: READABLE, restored: NOBODY, changes: true },
    });
    const same = await preview(`/api/checkpoints/${after.id}/restore-preview`);
    expect(same.body.access).toEqual({ current: READABLE, restored: READABLE, changes: false });
    // A version of the history previews the same way.
    const version = await preview(`/api/history/${before.changeId}/restore-preview`);
    expect(version.body).toEqual(res.body);
  });

  it('reverts the rules with the rest by default, and keeps today’s with keepAccess (undo brings all back)', async () => {
    const t = await fresh();
    await t.insert({ title: 'kept' });
    const saved = await checkpoint(t);
    await t.changeSchema({ access: READABLE });
    await t.insert({ title: 'later' });
    const latest = await t.latestChangeId();

    const kept = await historyCall(server, accounts, `/api/checkpoints/${saved.id}/restore`, 'alice', {
      keepAccess: true,
    });
    expect(kept.status).toBe(200);
    expect(kept.body.table.access).toEqual(READABLE);
    expect(await accessOf(t)).toEqual(READABLE);
    expect((await t.state())?.rows.map((row) => row.title)).toEqual(['kept']);

    const undo = await historyCall(server, accounts, `/api/history/${latest}/restore`);
    expect(undo.status).toBe(200);
    expect((await t.state())?.rows.map((row) => row.title)).toEqual(['kept', 'later']);

    const plain = await historyCall(server, accounts, `/api/checkpoints/${saved.id}/restore`);
    expect(plain.status).toBe(200);
    expect(await accessOf(t)).toEqual(NOBODY);
  });

  it('keeps today’s rules on a version restore too', async () => {
    const t = await fresh();
    const first = await t.latestChangeId();
    await t.changeSchema({ access: READABLE });
    await t.insert({ title: 'x' });
    const res = await historyCall(server, accounts, `/api/history/${first}/restore`, 'alice', { keepAccess: true });
    expect(res.status).toBe(200);
    expect(await accessOf(t)).toEqual(READABLE);
    expect((await t.state())?.rows).toEqual([]);
  });

  it('refuses to keep rules whose owner column the restored table lacks: 409, nothing changes', async () => {
    const t = await fresh();
    const saved = await checkpoint(t);
    await t.changeSchema({ schema: { ...ITEMS, owner: { type: 'text' } } });
    const own = { ...NOBODY, select: 'own', ownerColumn: 'owner' };
    await t.changeSchema({ access: own });
    const state = await t.state();

    const res = await historyCall(server, accounts, `/api/checkpoints/${saved.id}/restore`, 'alice', {
      keepAccess: true,
    });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'restore_conflict', details: { reason: 'column_missing' } });
    expect(res.body.message).toContain('owner column "owner"');
    expect(await t.state()).toEqual(state);
    expect(await accessOf(t)).toEqual(own);
  });

  it('previews a restore to before the table existed as no rules at all', async () => {
    const t = await fresh();
    await t.changeSchema({ access: READABLE });
    const [created] = (await t.history()).slice(-1);
    // The version of its creation: the rules then were the default.
    const res = await preview(`/api/history/${created?.id}/restore-preview`);
    expect(res.body.access).toEqual({ current: READABLE, restored: NOBODY, changes: true });
  });

  const scenarios: Array<Omit<ApiScenario, 'headers'> & { as?: AccountName | null }> = [
    { name: 'keepAccess that is text', url: '/api/history/1/restore', json: { keepAccess: 'yes' }, status: 400 },
    { name: 'an unknown option', url: '/api/checkpoints/1/restore', json: { keep: true }, status: 400 },
    { name: 'options that are a list', url: '/api/checkpoints/1/restore', json: [true], status: 400 },
    { name: 'a preview of an unknown checkpoint', method: 'GET', url: '/api/checkpoints/987654/restore-preview' },
    { name: 'a preview of a malformed id', method: 'GET', url: '/api/history/x%00/restore-preview', status: 400 },
    { name: 'a preview without credentials', method: 'GET', url: '/api/history/1/restore-preview', as: null },
  ].map((row) => ({
    method: 'POST',
    status: row.as === null ? 401 : 404,
    ...row,
  }));
  it.each(scenarios)('answers $name with $status', async ({ as = 'alice', ...scenario }) => {
    await runScenario(server, { ...scenario, headers: () => (as ? accounts[as].headers : {}) });
  });

  it('keeps accounts apart: another account’s checkpoint or change previews as unknown', async () => {
    const t = await fresh();
    const saved = await checkpoint(t);
    expect((await preview(`/api/checkpoints/${saved.id}/restore-preview`, 'bob')).status).toBe(404);
    expect((await preview(`/api/history/${saved.changeId}/restore-preview`, 'bob')).status).toBe(404);
  });
});
