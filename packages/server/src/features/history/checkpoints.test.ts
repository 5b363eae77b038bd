import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { type ApiScenario, runScenario } from '../../testing/auth.fixtures.js';
import { HistoryTable, historyCall } from '../../testing/history.fixtures.js';
import { type AccountName, type SignedInAccount, signInAll } from '../../testing/tables.fixtures.js';
import { startTestServer, type TestServer, testDialects } from '../../testing/test-server.js';
import { deleteTable } from '../tables/tables.service.js';
import { pruneHistory } from './history-retention.js';

// Checkpoints: create (validation, account scoping), list, restore across schema changes and table deletion;
// history retention keeps every change a checkpoint needs; restores elsewhere (all or nothing, undo).

const ITEMS = { title: { type: 'text', required: true }, qty: { type: 'number' } };
const DAY_MS = 24 * 60 * 60 * 1000;

describe.each(testDialects)('checkpoints and restore on %s', (dialect) => {
  let server: TestServer;
  let accounts: Record<AccountName, SignedInAccount>;
  let tables = 0;
  let bobTableId: number;
  const fresh = (owner: AccountName = 'alice') =>
    HistoryTable.create(server, accounts[owner], `items_${++tables}`, ITEMS);
  const create = (json: unknown, as: AccountName | null = 'alice') =>
    historyCall(server, accounts, '/api/checkpoints', as, json);
  const list = (query = '', as: AccountName = 'alice') =>
    server.request('GET', `/api/checkpoints${query}`, { headers: accounts[as].headers });
  const restoreCheckpoint = (id: number, as: AccountName = 'alice') =>
    historyCall(server, accounts, `/api/checkpoints/${id}/restore`, as);

  beforeAll(async () => {
    server = await startTestServer(dialect);
    accounts = await signInAll(server);
    bobTableId = (await fresh('bob')).id;
  });
  afterAll(() => server.close());

  it('creates a checkpoint at the table’s latest change: 201, name trimmed, blank description none', async () => {
    const t = await fresh();
    await t.insert({ title: 'a' });
    const res = await create({ tableId: t.id, name: '  Before import  ', description: '   ', userId: 'x' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      tableId: t.id,
      name: 'Before import',
      description: null,
      changeId: await t.latestChangeId(),
      createdBy: accounts.alice.accountId,
      createdAt: expect.stringMatching(/Z$/),
    });
  });

  const invalid: Array<[string, (tableId: number) => unknown, string, string]> = [
    ['a missing name', (tableId) => ({ tableId }), 'name', 'Checkpoint name is required'],
    ['a blank name', (tableId) => ({ tableId, name: ' \t ' }), 'name', 'Checkpoint name is required'],
    ['a name that is not text', (tableId) => ({ tableId, name: 5 }), 'name', 'Name must be text'],
    [
      'a long name',
      (tableId) => ({ tableId, name: 'n'.repeat(101) }),
      'name',
      'Checkpoint name cannot exceed 100 characters',
    ],
    [
      'a long description',
      (tableId) => ({ tableId, name: 'ok', description: 'd'.repeat(501) }),
      'description',
      'Description cannot exceed 500 characters',
    ],
    ['a missing tableId', () => ({ name: 'ok' }), 'tableId', 'tableId is required'],
    ['a tableId that is text', () => ({ tableId: 'abc', name: 'ok' }), 'tableId', 'tableId must be a table id'],
    ['a negative tableId', () => ({ tableId: -3, name: 'ok' }), 'tableId', 'tableId must be a table id'],
  ];
  it.each(invalid)('refuses %s with 400', async (_, body, field, message) => {
    const t = await fresh();
    const res = await create(body(t.id));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'validation_failed', message, validationErrors: { [field]: [message] } });
  });

  const scenarios: Array<Omit<ApiScenario, 'headers'> & { as?: AccountName | null }> = [
    {
      name: 'create without credentials',
      method: 'POST',
      url: '/api/checkpoints',
      json: { tableId: 1, name: 'x' },
      status: 401,
      as: null,
    },
    { name: 'list without credentials', method: 'GET', url: '/api/checkpoints', status: 401, as: null },
    {
      name: 'create for an unknown table',
      method: 'POST',
      url: '/api/checkpoints',
      json: { tableId: 987654, name: 'x' },
      status: 404,
      expected: { code: 'table_not_found' },
    },
    { name: 'create with a body that is not JSON', method: 'POST', url: '/api/checkpoints', body: '{', status: 400 },
    {
      name: 'list with a bad tableId',
      method: 'GET',
      url: '/api/checkpoints?tableId=abc',
      status: 400,
      expected: { message: 'tableId must be a table id' },
    },
    {
      name: 'restore a malformed id',
      method: 'POST',
      url: '/api/checkpoints/x1/restore',
      status: 404,
      expected: { code: 'checkpoint_not_found' },
    },
    { name: 'restore an unknown id', method: 'POST', url: '/api/checkpoints/987654/restore', status: 404 },
    { name: 'restore without credentials', method: 'POST', url: '/api/checkpoints/1/restore', status: 401, as: null },
  ];
  it.each(scenarios)('answers $name with $status', async ({ as = 'alice', ...scenario }) => {
    await runScenario(server, { ...scenario, headers: () => (as ? accounts[as].headers : {}) });
  });

  it('keeps accounts apart: another account’s table or checkpoint is unknown', async () => {
    expect((await create({ tableId: bobTableId, name: 'mine now' })).status).toBe(404);
    const bobs = await create({ tableId: bobTableId, name: 'bob’s' }, 'bob');
    expect(bobs.status).toBe(201);
    expect((await restoreCheckpoint(bobs.body.id)).status).toBe(404);
    expect((await list(`?tableId=${bobTableId}`)).body).toEqual([]);
    expect((await list('', 'bob')).body.map((c: { id: number }) => c.id)).toEqual([bobs.body.id]);
  });

  it('lists a table’s checkpoints newest first', async () => {
    const t = await fresh();
    const first = await create({ tableId: t.id, name: 'one' });
    await t.insert({ title: 'a' });
    const second = await create({ tableId: t.id, name: 'two', description: 'after a' });
    const res = await list(`?tableId=${t.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([second.body, first.body]);
    expect(second.body.changeId).toBeGreaterThan(first.body.changeId);
  });

  it('restores a checkpoint across record and schema changes, and the restore can be undone', async () => {
    const t = await fresh();
    await t.insert({ title: 'a', qty: 1 });
    await t.insert({ title: 'b', qty: 2 });
    const saved = await t.state();
    const checkpoint = (await create({ tableId: t.id, name: 'two items' })).body;
    await t.changeSchema({ schema: { ...ITEMS, note: { type: 'text' } } });
    await t.insert({ title: 'c', note: 'new' });
    await t.update(1, { qty: 10, note: 'changed' });
    await t.changeSchema({ schema: { name: ITEMS.title, note: { type: 'text' } }, renames: { title: 'name' } });
    await t.remove(2);
    await t.changeSchema({ name: `items_renamed_${t.id}` });
    const later = await t.state();
    const latest = await t.latestChangeId();

    const res = await restoreCheckpoint(checkpoint.id);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      success: true,
      message: 'Checkpoint restored',
      tableId: t.id,
      changeId: checkpoint.changeId,
      reverted: 6,
      undoChangeId: latest,
      table: { id: t.id, name: saved?.name },
      checkpoint,
    });
    expect(await t.state()).toEqual(saved);

    const undo = await historyCall(server, accounts, `/api/history/${res.body.undoChangeId}/restore`);
    expect(undo.status).toBe(200);
    expect(await t.state()).toEqual(later);
  });

  it('restores the same checkpoint again without reverting the first restore change by change', async () => {
    const t = await fresh();
    await t.insert({ title: 'a', qty: 1 });
    const saved = await t.state();
    const checkpoint = (await create({ tableId: t.id, name: 'one item' })).body;
    await t.insert({ title: 'b', qty: 2 });
    await t.update(1, { qty: 5 });
    await t.changeSchema({ schema: { ...ITEMS, note: { type: 'text' } } });
    const first = await restoreCheckpoint(checkpoint.id);
    expect(first.body).toMatchObject({ reverted: 3 });
    const afterFirst = await t.latestChangeId();
    // Already as the checkpoint left it: the changes since and the first restore's reverts cancel out.
    for (let i = 0; i < 3; i++) {
      const again = await restoreCheckpoint(checkpoint.id);
      expect(again.body).toMatchObject({ reverted: 0, undoChangeId: null });
      expect(await t.latestChangeId()).toBe(afterFirst);
      expect(await t.state()).toEqual(saved);
    }
    // A change after the restores is reverted on its own.
    await t.insert({ title: 'c', qty: 3 });
    expect((await restoreCheckpoint(checkpoint.id)).body).toMatchObject({ reverted: 1 });
    expect(await t.state()).toEqual(saved);
  });

  it('brings a deleted table back when a checkpoint made before is restored', async () => {
    const t = await fresh();
    await t.insert({ title: 'kept', qty: 3 });
    const saved = await t.state();
    const checkpoint = (await create({ tableId: t.id, name: 'before delete' })).body;
    await deleteTable(server.app.basalt.db, accounts.alice, t.id);
    expect(await t.state()).toBeNull();
    const res = await restoreCheckpoint(checkpoint.id);
    expect(res.body).toMatchObject({ reverted: 1, table: { id: t.id } });
    expect(await t.state()).toEqual(saved);
  });

  it('restores all or nothing: a change that cannot be reverted leaves everything as it was', async () => {
    const t = await fresh();
    const name = (await t.definition()).name;
    await t.insert({ title: 'a' });
    const target = await t.latestChangeId();
    await t.changeSchema({ name: `${name}_moved` });
    await t.insert({ title: 'b' });
    await HistoryTable.create(server, accounts.alice, name, ITEMS);
    const before = await t.state();
    const history = await t.history();
    const res = await historyCall(server, accounts, `/api/history/${target}/restore`);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({
      code: 'restore_conflict',
      message: `Cannot restore this version: change #${history[1]?.id} (SCHEMA_UPDATE) cannot be reverted: A table named "${name}" already exists`,
      details: { reason: 'table_exists' },
    });
    expect(await t.state()).toEqual(before);
    expect(await t.history()).toEqual(history);
  });

  it('prunes changes past the retention except those a checkpoint needs', async () => {
    const kept = await fresh();
    await kept.insert({ title: 'old' });
    const checkpoint = (await create({ tableId: kept.id, name: 'keep from here' })).body;
    await kept.insert({ title: 'new' });
    const pruned = await fresh();
    await pruned.insert({ title: 'gone' });
    const db = server.app.basalt.db;

    expect(await pruneHistory(db, { retentionDays: 0, now: new Date(Date.now() + 1000 * DAY_MS) })).toBe(0);
    expect(await pruneHistory(db, { retentionDays: 90 })).toBe(0);
    expect(await pruneHistory(db, { retentionDays: 90, now: new Date(Date.now() + 91 * DAY_MS) })).toBeGreaterThan(0);

    expect((await kept.history()).map((c) => c.id)).toEqual([expect.any(Number), checkpoint.changeId]);
    expect(await pruned.history()).toEqual([]);
    // A table with no change left: its checkpoint names none, and restoring it reverts what came after.
    const empty = await create({ tableId: pruned.id, name: 'no history' });
    expect(empty.body.changeId).toBeNull();
    await pruned.insert({ title: 'after' });
    const before = (await pruned.state())?.rows.map((r) => r.title);
    expect(before).toEqual(['gone', 'after']);
    expect((await restoreCheckpoint(empty.body.id)).body).toMatchObject({ reverted: 1, changeId: null });
    expect((await pruned.state())?.rows.map((r) => r.title)).toEqual(['gone']);

    expect((await restoreCheckpoint(checkpoint.id)).body).toMatchObject({ reverted: 1 });
    expect((await kept.state())?.rows.map((r) => r.title)).toEqual(['old']);
  });

  it('reads HISTORY_RETENTION_DAYS: 90 by default, 0 keeps history for ever, negative is refused', () => {
    expect(loadConfig({}).historyRetentionDays).toBe(90);
    expect(loadConfig({ HISTORY_RETENTION_DAYS: '0' }).historyRetentionDays).toBe(0);
    expect(loadConfig({ HISTORY_RETENTION_DAYS: '30' }).historyRetentionDays).toBe(30);
    expect(() => loadConfig({ HISTORY_RETENTION_DAYS: '-1' })).toThrow(/HISTORY_RETENTION_DAYS cannot be negative/);
  });
});
