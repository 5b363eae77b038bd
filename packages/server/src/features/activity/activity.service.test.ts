import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../../testing/auth.fixtures.js';
import { type TestServer, testDialects } from '../../testing/test-server.js';
import { createAccount } from '../auth/users/accounts.service.js';
import { listActivity, recordActivity } from './activity.service.js';

describe.each(testDialects)('activity on %s', (dialect) => {
  let server: TestServer;
  let ada: string;
  let bob: string;
  beforeAll(async () => {
    server = await startServer(dialect);
    const db = server.app.basalt.db.kysely;
    ada = (await createAccount(db, { email: 'ada@example.com', passwordHash: null, confirmed: true })).id;
    bob = (await createAccount(db, { email: 'bob@example.com', passwordHash: null, confirmed: true })).id;
  });
  afterAll(() => server.close());

  it('records entries and pages them newest first, per account', async () => {
    const { db } = server.app.basalt;
    for (let i = 1; i <= 12; i++) {
      await recordActivity(db.kysely, {
        accountId: ada,
        action: 'CREATE',
        resource: 'tables',
        details: { tableName: `t${i}` },
      });
    }
    await recordActivity(db.kysely, { accountId: bob, action: 'LOGIN', resource: 'auth' });
    const page1 = await listActivity(db.kysely, ada, { page: 1, limit: 10 });
    expect(page1.data).toHaveLength(10);
    expect(page1.data[0]).toMatchObject({
      action: 'CREATE',
      resource: 'tables',
      details: { tableName: 't12' },
      createdAt: expect.any(String),
    });
    expect(page1.pagination).toEqual({
      totalItems: 12,
      totalPages: 2,
      currentPage: 1,
      hasNext: true,
      hasPrevious: false,
    });
    const page2 = await listActivity(db.kysely, ada, { page: 2, limit: 10 });
    expect(page2.data.map((e) => e.details?.tableName)).toEqual(['t2', 't1']);
    expect(page2.pagination).toMatchObject({ hasNext: false, hasPrevious: true });
    expect((await listActivity(db.kysely, bob, { page: 1, limit: 10 })).data).toEqual([
      expect.objectContaining({ action: 'LOGIN', details: null }),
    ]);
  });

  it('commits and rolls back with the transaction it is given', async () => {
    const { db } = server.app.basalt;
    await expect(
      db.transaction(async ({ kysely: trx }) => {
        await recordActivity(trx, { accountId: bob, action: 'DELETE', resource: 'tables' });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    const feed = await listActivity(db.kysely, bob, { page: 1, limit: 10 });
    expect(feed.data.map((e) => e.action)).toEqual(['LOGIN']);
  });

  it('answers an empty feed with one empty page', async () => {
    const feed = await listActivity(server.app.basalt.db.kysely, crypto.randomUUID(), { page: 1, limit: 10 });
    expect(feed).toEqual({
      data: [],
      pagination: { totalItems: 0, totalPages: 1, currentPage: 1, hasNext: false, hasPrevious: false },
    });
  });
});
