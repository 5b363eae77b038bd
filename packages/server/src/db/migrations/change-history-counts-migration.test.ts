import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openTestDb, testDialects } from '../../testing/test-server.js';
import { type Db, migrateToLatest, systemMigrator } from '../database.js';
import { readHistoryCount } from '../history-counts.js';

// Migration 0011 on a database that already has history: each account's entries of each table are counted once,
// and the counts go on from there.

describe.each(testDialects)('migration 0011 on %s', (engine) => {
  let db: Db;
  let close: () => Promise<void>;
  beforeEach(async () => {
    ({ db, close } = await openTestDb(engine));
  });
  afterEach(() => close());

  it('counts the history already there, per account and table', async () => {
    expect((await systemMigrator(db).migrateTo('0010_projects')).error).toBeUndefined();
    const at = '2030-01-01T00:00:00.000Z';
    const accounts = ['a0000000-0000-4000-8000-000000000001', 'a0000000-0000-4000-8000-000000000002'];
    for (const [i, account] of accounts.entries()) {
      await sql`INSERT INTO accounts (id, email, is_admin, email_confirmed_at, user_metadata, app_metadata,
        marketing_emails, created_at, updated_at) VALUES (${account}, ${`old${i}@example.com`}, 1, ${at}, '{}', '{}',
        0, ${at}, ${at})`.execute(db.kysely);
    }
    const entries: Array<[string, number, number]> = [
      [accounts[0] as string, 1, 3],
      [accounts[0] as string, 2, 1],
      [accounts[1] as string, 3, 5],
    ];
    for (const [account, tableId, n] of entries) {
      for (let i = 0; i < n; i++) {
        await db.kysely
          .insertInto('change_history')
          .values({
            account_id: account,
            table_id: tableId,
            table_name: `t${tableId}`,
            record_id: i + 1,
            change_type: 'RECORD_CREATE',
            previous_state: null,
            new_state: '{}',
            actor_id: account,
            created_at: at,
          })
          .execute();
      }
    }

    await migrateToLatest(db);
    const [first, second] = accounts as [string, string];
    expect(await readHistoryCount(db.kysely, { accountId: first, tableId: 1 })).toBe(3);
    expect(await readHistoryCount(db.kysely, { accountId: first, tableId: 2 })).toBe(1);
    expect(await readHistoryCount(db.kysely, { accountId: first })).toBe(4);
    expect(await readHistoryCount(db.kysely, { accountId: second })).toBe(5);
    expect(await readHistoryCount(db.kysely, { accountId: second, tableId: 1 })).toBe(0);
  });
});
