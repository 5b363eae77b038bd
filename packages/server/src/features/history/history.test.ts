import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AccountName, type SignedInAccount, signInAll } from '../../testing/tables.fixtures.js';
import { startTestServer, type TestServer, testDialects } from '../../testing/test-server.js';
import { createRecords } from '../records/records.service.js';
import { findTableById } from '../tables/tables.service.js';

describe.each(testDialects)('history API on %s', (dialect) => {
  let server: TestServer;
  let accounts: Record<AccountName, SignedInAccount>;
  let tableId: number;
  const get = (query: string, name: AccountName = 'alice') =>
    server.request('GET', `/api/history${query}`, { headers: accounts[name].headers });

  beforeAll(async () => {
    server = await startTestServer(dialect);
    accounts = await signInAll(server);
    const created = await server.request('POST', '/api/tables', {
      headers: accounts.alice.headers,
      json: { name: 'notes', schema: { body: { type: 'text' } } },
    });
    tableId = created.body.id;
    const db = server.app.basalt.db;
    const table = await findTableById(db, accounts.alice, tableId);
    if (!table) throw new Error('table missing');
    await createRecords(
      db,
      accounts.alice,
      table,
      Array.from({ length: 24 }, (_, i) => ({ body: `note ${i}` })),
    );
  });
  afterAll(() => server.close());

  it('pages a table’s changes, newest first, with the console’s pagination object', async () => {
    const first = await get(`?tableId=${tableId}&page=1&limit=10`);
    expect(first.status).toBe(200);
    expect(first.body.pagination).toEqual({
      totalItems: 25,
      totalPages: 3,
      currentPage: 1,
      hasNext: true,
      hasPrevious: false,
      nextBefore: first.body.data[9].id,
    });
    expect(first.body.data).toHaveLength(10);
    expect(first.body.data[0]).toMatchObject({
      changeType: 'RECORD_CREATE',
      tableName: 'notes',
      tableId,
      recordId: 24,
      previousState: null,
      newState: { id: 24, body: 'note 23' },
      userId: accounts.alice.accountId,
    });
    expect(first.body.data[0].timestamp).toMatch(/Z$/);
    const last = await get(`?tableId=${tableId}&page=3&limit=10`);
    expect(last.body.data.at(-1)).toMatchObject({ changeType: 'SCHEMA_CREATE', recordId: null, previousState: null });
    expect(last.body.pagination).toMatchObject({ currentPage: 3, hasNext: false, hasPrevious: true, nextBefore: null });
  });

  it('pages by cursor: each page the changes older than the last of the page before, the same as by number', async () => {
    const byNumber = [];
    for (const page of [1, 2, 3]) byNumber.push(...(await get(`?tableId=${tableId}&page=${page}&limit=10`)).body.data);
    const byCursor = [];
    let before: number | null = null;
    let pages = 0;
    do {
      const res = await get(`?tableId=${tableId}&limit=10${before === null ? '' : `&before=${before}`}`);
      expect(res.status).toBe(200);
      expect(res.body.pagination).toMatchObject({
        totalItems: 25,
        totalPages: 3,
        currentPage: before === null ? 1 : null,
        hasPrevious: before !== null,
      });
      byCursor.push(...res.body.data);
      before = res.body.pagination.nextBefore;
      pages++;
    } while (before !== null);
    expect(pages).toBe(3);
    expect(byCursor).toEqual(byNumber);
    const beyond = await get(`?tableId=${tableId}&before=1`);
    expect(beyond.body.data).toEqual([]);
    expect(beyond.body.pagination).toMatchObject({ hasNext: false, nextBefore: null, totalItems: 25 });
  });

  it.each([
    ['?tableId=abc', 'tableId', 'tableId must be a table id'],
    ['?tableId=0', 'tableId', 'tableId must be a table id'],
    ['?tableId=1.5', 'tableId', 'tableId must be a table id'],
    ['?of=tables', 'of', 'of must be functions'],
    ['?tableId=1&of=functions', 'of', 'tableId and of cannot be used together'],
    ['?tableId=1&limit=0', 'limit', 'limit must be at least 1'],
    ['?tableId=1&limit=101', 'limit', 'limit cannot exceed 100'],
    ['?page=0', 'page', 'page must be at least 1'],
    ['?page=1000000001', 'page', 'page cannot exceed 1000000000'],
    ['?page=1e400', 'page', 'page must be a number'],
    ['?before=abc', 'before', 'before must be a change id'],
    ['?before=0', 'before', 'before must be a change id'],
    ['?before=-5', 'before', 'before must be a change id'],
    ['?before=1.5', 'before', 'before must be a change id'],
    ['?before=99999999999999999999', 'before', 'before must be a change id'],
    ['?before=1&before=2', 'before', 'before must be a change id'],
    ['?page=2&before=10', 'before', 'page and before cannot be used together'],
  ])('refuses %s with 400', async (query, field, message) => {
    const res = await get(query);
    expect(res.status).toBe(400);
    expect(res.body.validationErrors[field]).toContain(message);
  });

  it('shows nothing of another account’s tables and needs a user', async () => {
    const res = await get(`?tableId=${tableId}`, 'bob');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([]);
    expect(res.body.pagination.totalItems).toBe(0);
    expect((await server.request('GET', `/api/history?tableId=${tableId}`)).status).toBe(401);
  });

  it('keeps a deleted table’s history, with its definition and rows', async () => {
    const created = await server.request('POST', '/api/tables', {
      headers: accounts.alice.headers,
      json: { name: 'gone', schema: { n: { type: 'number', unique: true } } },
    });
    const db = server.app.basalt.db;
    const table = await findTableById(db, accounts.alice, created.body.id);
    if (!table) throw new Error('table missing');
    await createRecords(db, accounts.alice, table, [{ n: 1 }, { n: 2 }]);
    await server.request('DELETE', `/api/tables/${created.body.id}`, { headers: accounts.alice.headers });
    const res = await get(`?tableId=${created.body.id}`);
    expect(res.body.data.map((c: { changeType: string }) => c.changeType)).toEqual([
      'SCHEMA_DELETE',
      'RECORD_CREATE',
      'RECORD_CREATE',
      'SCHEMA_CREATE',
    ]);
    const deletion = res.body.data[0];
    expect(deletion.previousState.table).toMatchObject({
      name: 'gone',
      schema: { id: {}, n: { type: 'number', unique: true } },
    });
    expect(deletion.previousState.rows.map((r: { n: number }) => r.n)).toEqual([1, 2]);
    expect(deletion.newState).toBeNull();
  });

  it('records a schema change with both schemas and the dropped column’s data', async () => {
    await server.request('PATCH', `/api/tables/${tableId}`, {
      headers: accounts.alice.headers,
      json: { description: 'Short notes', schema: { title: { type: 'text' } } },
    });
    const [change] = (await get(`?tableId=${tableId}&limit=1`)).body.data;
    expect(change.changeType).toBe('SCHEMA_UPDATE');
    expect(Object.keys(change.previousState.schema)).toEqual(['id', 'body']);
    expect(change.previousState.droppedColumns.body['1']).toBe('note 0');
    expect(change.newState).toMatchObject({ description: 'Short notes', schema: { id: {}, title: { type: 'text' } } });
  });
});
