import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openTestDb, testDialects } from '../../testing/test-server.js';
import { type Db, migrateToLatest, systemMigrator } from '../database.js';

// Migration 0020 on a database that already has users: each console account and app user with an address gets its
// email identity as a stored row, with the id Basalt showed before (derived from the user's id), on both engines.

describe.each(testDialects)('migration 0020 on %s', (engine) => {
  let db: Db;
  let close: () => Promise<void>;
  beforeEach(async () => {
    ({ db, close } = await openTestDb(engine));
  });
  afterEach(() => close());

  it('stores the email identities of the users already there', async () => {
    expect((await systemMigrator(db).migrateTo('0014_sql_execution')).error).toBeUndefined();
    const at = '2030-01-01T00:00:00.000Z';
    const account = 'a0000000-0000-4000-8000-000000000001';
    const endUser = 'b0000000-0000-4000-8000-000000000002';
    await sql`INSERT INTO accounts (id, email, is_admin, email_confirmed_at, user_metadata, app_metadata,
      marketing_emails, created_at, updated_at) VALUES (${account}, 'old@example.com', 1, ${at}, '{}', '{}', 0, ${at},
      ${at})`.execute(db.kysely);
    await sql`INSERT INTO apps (account_id, ref, anon_key, service_key, settings, created_at, updated_at)
      VALUES (${account}, 'abcdefghijabcdefghij', 'a', 's', '{}', ${at}, ${at})`.execute(db.kysely);
    await sql`INSERT INTO app_users (id, app_id, email, user_metadata, app_metadata, created_at, updated_at)
      VALUES (${endUser}, ${account}, 'user@example.com', '{}', '{}', ${at}, ${at})`.execute(db.kysely);

    await migrateToLatest(db);
    const consoleIdentity = await db.kysely.selectFrom('identities').selectAll().executeTakeFirstOrThrow();
    expect(consoleIdentity).toMatchObject({
      // The id Basalt derived before identities were stored, which apps have seen.
      id: 'a1059777-b5dc-8a86-bd35-2c2293ba884c',
      account_id: account,
      app_id: '',
      provider: 'email',
      provider_id: account,
      email: 'old@example.com',
    });
    expect(JSON.parse(consoleIdentity.identity_data)).toEqual({
      sub: account,
      email: 'old@example.com',
      email_verified: true,
      phone_verified: false,
    });
    const appIdentity = await db.kysely.selectFrom('app_identities').selectAll().executeTakeFirstOrThrow();
    expect(appIdentity).toMatchObject({ account_id: endUser, app_id: account, provider: 'email' });
    expect(JSON.parse(appIdentity.identity_data).email_verified).toBe(false);
    const user = await db.kysely.selectFrom('app_users').select(['is_anonymous']).executeTakeFirstOrThrow();
    expect(Number(user.is_anonymous)).toBe(0);
  });
});
