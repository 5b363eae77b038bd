import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AccountName, type SignedInAccount, signInAll } from '../../testing/tables.fixtures.js';
import { startTestServer, type TestServer, testDialects } from '../../testing/test-server.js';
import { createRecords } from '../records/records.service.js';
import { findTableById } from '../tables/tables.service.js';
import { formatStorageSize } from './stats.service.js';

describe('formatStorageSize', () => {
  it.each([
    [0, '0 MB'],
    [-1, '0 MB'],
    [Number.NaN, '0 MB'],
    [512, '0.5 KB'],
    [8192, '8.0 KB'],
    [1_258_291, '1.2 MB'],
    [5 * 1024 ** 3, '5.0 GB'],
  ])('%d bytes read as %s', (bytes, text) => {
    expect(formatStorageSize(bytes)).toBe(text);
  });
});

describe.each(testDialects)('stats API on %s', (dialect) => {
  let server: TestServer;
  let accounts: Record<AccountName, SignedInAccount>;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    accounts = await signInAll(server);
  });
  afterAll(() => server.close());

  it('starts empty', async () => {
    const res = await server.request('GET', '/api/stats', { headers: accounts.bob.headers });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      activities: 0,
      apiCalls: 0,
      storageSize: '0 MB',
      filesSize: '0 MB',
      totalSize: '0 MB',
      tables: 0,
    });
  });

  it('counts the caller’s tables and activity and measures their storage', async () => {
    const created = await server.request('POST', '/api/tables', {
      headers: accounts.alice.headers,
      json: { name: 'stuff', schema: { body: { type: 'text' } } },
    });
    const db = server.app.basalt.db;
    const table = await findTableById(db, accounts.alice, created.body.id);
    if (!table) throw new Error('table missing');
    await createRecords(
      db,
      accounts.alice,
      table,
      Array.from({ length: 200 }, (_, i) => ({ body: `row ${i} `.repeat(20) })),
    );
    const res = await server.request('GET', '/api/stats', { headers: accounts.alice.headers });
    expect(res.body).toMatchObject({ activities: 2, tables: 1 });
    expect(res.body.storageSize).toMatch(/^\d+\.\d (KB|MB)$/);
    expect((await server.request('GET', '/api/stats', { headers: accounts.bob.headers })).body.tables).toBe(0);
    expect((await server.request('GET', '/api/stats')).status).toBe(401);
  });

  it('counts the caller’s stored files beside its tables (the kept counter)', async () => {
    const headers = accounts.bob.headers;
    expect((await server.request('POST', '/storage/v1/bucket', { headers, json: { name: 'docs' } })).status).toBe(200);
    const upload = await server.request('POST', '/storage/v1/object/docs/a.txt', {
      headers: { ...headers, 'content-type': 'text/plain' },
      body: 'x'.repeat(3 * 1024),
    });
    expect(upload.status).toBe(200);
    const res = await server.request('GET', '/api/stats', { headers });
    expect(res.body).toMatchObject({ storageSize: '0 MB', filesSize: '3.0 KB', totalSize: '3.0 KB' });
    expect((await server.request('GET', '/api/stats', { headers: accounts.alice.headers })).body.filesSize).toBe(
      '0 MB',
    );
  });
});
