import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDialects } from '../../testing/test-server.js';
import { openDatabase } from '../database.js';
import { textQuery } from '../sql-text.js';

// The database settings an operator gives reach every session of the pool: DATABASE_SYNCHRONOUS_COMMIT=off makes
// commits stop waiting for the disk, and the default leaves PostgreSQL's own (on).

describe.runIf(testDialects.includes('postgres'))('database settings on postgres sessions', () => {
  let database: { url: string; drop(): Promise<void> };

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.drop());

  const settingsOf = async (synchronousCommit: boolean) => {
    const db = openDatabase({
      databaseUrl: database.url,
      dataDir: '/nonexistent',
      database: { directUrl: null, poolMode: 'session', poolSize: 2, statementTimeoutMs: 4321, synchronousCommit },
    });
    try {
      const show = async (name: string) =>
        (await db.readRows<Record<string, string>>(textQuery(`SHOW ${name}`, [])))[0]?.[name];
      // In a transaction too: a write's commit is what the setting is about.
      const inWrite = await db.transaction(
        async (scope) => (await scope.run<{ synchronous_commit: string }>(textQuery('SHOW synchronous_commit', [])))[0],
      );
      return {
        synchronous: await show('synchronous_commit'),
        inWrite: inWrite?.synchronous_commit,
        timeout: await show('statement_timeout'),
      };
    } finally {
      await db.close();
    }
  };

  it('commits without waiting for the disk when told, and as PostgreSQL does by default', async () => {
    expect(await settingsOf(false)).toEqual({ synchronous: 'off', inWrite: 'off', timeout: '4321ms' });
    expect(await settingsOf(true)).toEqual({ synchronous: 'on', inWrite: 'on', timeout: '4321ms' });
  });
});
