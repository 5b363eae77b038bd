import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { type Kysely, sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../testing/test-server.js';
import { type Db, migrateToLatest, openDatabase, systemMigrator } from '../database.js';
import type { SystemDatabase } from '../schema.js';
import { postgresLogSearch } from './postgres-log-search.js';
import { trigramQuery } from './sqlite-log-search.js';

// The system log's search index (db/dialect/*-log-search.ts): the FTS5 query a term becomes, how the SQLite
// index follows the table (the writer's batches, deletes, updates, the migration's backfill), and PostgreSQL's
// migration with and without pg_trgm. features/logs/logs.search.test.ts checks the search's answers.

describe('trigramQuery', () => {
  it.each<[string, string | null]>([
    ['ab', null],
    ['', null],
    ['abc', '"abc"'],
    ['abcd', '"abc" AND "bcd"'],
    ['aaaa', '"aaa"'],
    ['a"bc', '"a""b" AND """bc"'],
    ['a*b', '"a*b"'],
    ['NEAR(a b)', '"NEA" AND "EAR" AND "AR(" AND "R(a" AND "(a " AND "a b" AND " b)"'],
    ['-a:', '"-a:"'],
    ['😀ab', '"😀ab"'],
    ['😀😀', null],
    ['a\u0000bc', null],
  ])('%j → %j', (term, query) => {
    expect(trigramQuery(term)).toBe(query);
  });
});

const COLUMNS = ['created_at', 'level', 'source', 'message', 'path', 'account_id', 'context'] as const;

// Entries stored as the writer stores them: the INSERT, then the index in the same transaction.
async function store(db: Db, messages: string[]): Promise<void> {
  await db.transaction(async ({ kysely: trx }) => {
    let first: number | undefined;
    let last = 0;
    for (const message of messages) {
      const values = ['2030-01-01T00:00:00.000Z', 'info', 'api', message, null, null, '{"k":"v"}'];
      const { insertId } = await sql`INSERT INTO system_logs (${sql.raw(COLUMNS.join(', '))})
        VALUES (${sql.join(values)})`.execute(trx);
      last = Number(insertId);
      first ??= last;
    }
    await db.dialect.logSearch.indexLogRows(trx, first === undefined ? null : { first, last });
  });
}

const candidates = async (db: Kysely<SystemDatabase>, term: string) => {
  const { rows } = await sql<{ rowid: number }>`SELECT rowid FROM system_logs_search
    WHERE system_logs_search MATCH ${trigramQuery(term)} ORDER BY rowid`.execute(db);
  return rows.map((r) => Number(r.rowid));
};
const ids = async (db: Kysely<SystemDatabase>, like: string) => {
  const { rows } = await sql<{ id: number }>`SELECT id FROM system_logs WHERE message LIKE ${like} ORDER BY id`.execute(
    db,
  );
  return rows.map((r) => Number(r.id));
};
const integrityCheck = (db: Kysely<SystemDatabase>) =>
  sql`INSERT INTO system_logs_search (system_logs_search) VALUES ('integrity-check')`.execute(db);

describe('the search index on sqlite', () => {
  let dataDir: string;
  let db: Db;
  beforeEach(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'basalt-log-search-'));
    db = openDatabase({ databaseUrl: null, dataDir });
  });
  afterEach(async () => {
    await db.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  it('is built from the entries already stored by migration 0006', async () => {
    const migrator = systemMigrator(db);
    expect((await migrator.migrateTo('0005_logs')).error).toBeUndefined();
    for (const message of ['older alpha', 'older beta', 'OLDER GAMMA']) {
      await sql`INSERT INTO system_logs (created_at, level, source, message) VALUES ('2030', 'info', 'api', ${message})`.execute(
        db.kysely,
      );
    }
    expect(await migrateToLatest(db)).toContain('0006_logs_search');
    expect(await candidates(db.kysely, 'older')).toEqual([1, 2, 3]);
    expect(await candidates(db.kysely, 'Gamma')).toEqual([3]);
    await integrityCheck(db.kysely);
  });

  it('follows the table: batches, deletes and updates', async () => {
    await migrateToLatest(db);
    await store(db, ['first apple', 'second apple', 'third pear']);
    await store(db, ['fourth apple']);
    expect(await candidates(db.kysely, 'apple')).toEqual(await ids(db.kysely, '%apple%'));
    expect(await candidates(db.kysely, 'apple')).toHaveLength(3);
    // The retention job deletes the oldest entries.
    await db.kysely.deleteFrom('system_logs').where('id', '<=', 2).execute();
    expect(await candidates(db.kysely, 'apple')).toEqual([4]);
    await db.kysely.updateTable('system_logs').set({ message: 'third apple' }).where('id', '=', 3).execute();
    expect(await candidates(db.kysely, 'apple')).toEqual([3, 4]);
    expect(await candidates(db.kysely, 'pear')).toEqual([]);
    await integrityCheck(db.kysely);
  });

  it('narrows a term with at most `max` candidates, not a commoner one', async () => {
    await migrateToLatest(db);
    await store(db, ['apple 1', 'apple 2', 'apple 3', 'pear 1']);
    const search = db.dialect.logSearch;
    expect(await search.logSearchCandidates(db.kysely, 'pear', 1)).not.toBeNull();
    expect(await search.logSearchCandidates(db.kysely, 'apple', 3)).not.toBeNull();
    expect(await search.logSearchCandidates(db.kysely, 'apple', 2)).toBeNull();
    expect(await search.logSearchCandidates(db.kysely, 'ap', 100)).toBeNull();
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('the search index on postgres', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let db: Db;
  beforeEach(async () => {
    database = await createTestDatabase();
    db = openDatabase({ databaseUrl: database.url, dataDir: os.tmpdir() });
  });
  afterEach(async () => {
    await db.close();
    await database.drop();
  });

  const indexExists = async (trx: Kysely<SystemDatabase>) =>
    (await sql`SELECT 1 FROM pg_indexes WHERE indexname = 'system_logs_search_idx'`.execute(trx)).rows.length === 1;

  it('is a pg_trgm index, built by migration 0006', async () => {
    expect(await migrateToLatest(db)).toContain('0006_logs_search');
    expect(await indexExists(db.kysely)).toBe(true);
    const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_extension
      WHERE extname = 'pg_trgm'`.execute(db.kysely);
    expect(rows[0]?.n).toBe(1);
  });

  it('is skipped, not an error, where pg_trgm cannot be created', async () => {
    const migrator = systemMigrator(db);
    expect((await migrator.migrateTo('0005_logs')).error).toBeUndefined();
    // A role that owns system_logs but may not create an extension in the database (no CREATE on it), inside a
    // transaction that is rolled back, role included.
    const trx = await db.kysely.startTransaction().execute();
    try {
      const role = `basalt_no_ext_${Date.now()}`;
      await sql.raw(`CREATE ROLE ${role} NOLOGIN`).execute(trx);
      await sql.raw(`ALTER TABLE system_logs OWNER TO ${role}`).execute(trx);
      await sql.raw(`SET LOCAL ROLE ${role}`).execute(trx);
      await postgresLogSearch.createLogSearchIndex(trx);
      // The transaction goes on (the failure stayed in its savepoint), without an index.
      expect(await indexExists(trx)).toBe(false);
      await sql`SELECT count(*) FROM system_logs`.execute(trx);
    } finally {
      await trx.rollback().execute();
    }
  });
});
