import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openTestDb, testDialects } from '../../testing/test-server.js';
import { type Db, migrateToLatest, systemMigrator } from '../database.js';
import { readRowCount } from '../row-counts.js';

// Migration 0016 on a database that already has tables with rows: each gets its kept count, counted once, in as
// many shards as the engine keeps; a table created afterwards starts at 0.

describe.each(testDialects)('migration 0016 on %s', (engine) => {
  let db: Db;
  let close: () => Promise<void>;
  beforeEach(async () => {
    ({ db, close } = await openTestDb(engine));
  });
  afterEach(() => close());

  it('counts the rows of the tables already there', async () => {
    expect((await systemMigrator(db).migrateTo('0014_sql_execution')).error).toBeUndefined();
    const at = '2030-01-01T00:00:00.000Z';
    const account = 'a0000000-0000-4000-8000-000000000001';
    await sql`INSERT INTO accounts (id, email, is_admin, email_confirmed_at, user_metadata, app_metadata,
      marketing_emails, created_at, updated_at) VALUES (${account}, 'old@example.com', 1, ${at}, '{}', '{}', 0, ${at},
      ${at})`.execute(db.kysely);
    for (const [name, rows] of [
      ['empty', 0],
      ['full', 7],
    ] as const) {
      const { id } = await db.kysely
        .insertInto('user_tables')
        .values({
          account_id: account,
          name,
          name_key: name,
          description: null,
          schema: '{}',
          schema_version: 1,
          created_at: at,
          updated_at: at,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await sql
        .raw(`CREATE TABLE "t_${id}" (id integer PRIMARY KEY, created_at text, updated_at text)`)
        .execute(db.kysely);
      for (let i = 1; i <= rows; i++) await sql.raw(`INSERT INTO "t_${id}" (id) VALUES (${i})`).execute(db.kysely);
    }

    await migrateToLatest(db);
    const shards = db.dialect.userTables.rowCountShards;
    const empty = await readRowCount(db.readRows, db.dialect, 1);
    const full = await readRowCount(db.readRows, db.dialect, 2);
    expect(empty).toEqual({ rowCount: 0, versions: Array(shards).fill(1) });
    expect(full).toEqual({ rowCount: 7, versions: Array(shards).fill(1) });
  });
});
