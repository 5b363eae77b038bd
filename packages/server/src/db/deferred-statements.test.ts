import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer, testDialects } from '../testing/test-server.js';
import type { Db } from './database.js';
import { textQuery } from './sql-text.js';

// Db.defer: statements whose results nobody reads (a record write's history and activity entries) run by the time
// their transaction commits, before the next statement the scope runs, and on PostgreSQL as one statement.

describe.each(testDialects)('deferred statements on %s', (dialect) => {
  let server: TestServer;
  let db: Db;
  const postgres = dialect === 'postgres';
  const p = (n: number) => (postgres ? `$${n}` : '?');
  const insert = (k: number, n: number, note = 'none') =>
    textQuery(`INSERT INTO deferred_probe (k, n, note) VALUES (${p(1)}, ${p(2)}, ${p(3)})`, [k, n, note]);
  const addTo = (k: number, n: number) =>
    textQuery(
      `INSERT INTO deferred_probe (k, n, note) VALUES (${p(1)}, ${p(2)}, ${p(3)})
       ON CONFLICT (k) DO UPDATE SET n = deferred_probe.n + excluded.n`,
      [k, n, 'none'],
    );
  const rows = async () =>
    (
      await sql<{ k: number; n: number; note: string }>`SELECT k, n, note FROM deferred_probe ORDER BY k`.execute(
        db.kysely,
      )
    ).rows;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    db = server.app.basalt.db;
    await sql`CREATE TABLE deferred_probe (k integer PRIMARY KEY, n integer NOT NULL, note text NOT NULL)`.execute(
      db.kysely,
    );
    await sql`CREATE TABLE deferred_total (k integer PRIMARY KEY, n integer NOT NULL)`.execute(db.kysely);
    await sql`INSERT INTO deferred_total (k, n) VALUES (1, 0)`.execute(db.kysely);
    // Triggers write down the order in which rows are written.
    if (postgres) {
      await sql`CREATE TABLE deferred_log (seq serial PRIMARY KEY, what text NOT NULL)`.execute(db.kysely);
      await sql
        .raw(`CREATE FUNCTION deferred_note() RETURNS trigger LANGUAGE plpgsql AS $$
          BEGIN INSERT INTO deferred_log (what) VALUES (TG_TABLE_NAME || ' ' || TG_OP); RETURN NEW; END $$`)
        .execute(db.kysely);
      for (const table of ['deferred_probe', 'deferred_total'])
        await sql
          .raw(`CREATE TRIGGER ${table}_note BEFORE INSERT OR UPDATE ON ${table}
            FOR EACH ROW EXECUTE FUNCTION deferred_note()`)
          .execute(db.kysely);
    } else {
      await sql`CREATE TABLE deferred_log (seq INTEGER PRIMARY KEY AUTOINCREMENT, what TEXT NOT NULL)`.execute(
        db.kysely,
      );
      for (const [table, operation] of [
        ['deferred_probe', 'INSERT'],
        ['deferred_total', 'UPDATE'],
      ])
        await sql
          .raw(`CREATE TRIGGER ${table}_note_${operation} AFTER ${operation} ON ${table}
            BEGIN INSERT INTO deferred_log (what) VALUES ('${table} ${operation}'); END`)
          .execute(db.kysely);
    }
  });
  afterAll(() => server.close());
  beforeEach(async () => {
    await sql`DELETE FROM deferred_probe`.execute(db.kysely);
    await sql`DELETE FROM deferred_log`.execute(db.kysely);
  });

  it('runs them by the commit, and before the next statement the scope runs', async () => {
    const seen = await db.transaction(async (scope) => {
      await scope.defer(insert(1, 10));
      await scope.defer(insert(2, 20));
      const [row] = await scope.run(textQuery<{ total: number }>('SELECT sum(n) AS total FROM deferred_probe', []));
      await scope.defer(insert(3, 30));
      return Number(row?.total);
    });
    expect(seen).toBe(30);
    expect(await rows()).toEqual([
      { k: 1, n: 10, note: 'none' },
      { k: 2, n: 20, note: 'none' },
      { k: 3, n: 30, note: 'none' },
    ]);
  });

  it('keeps every change of one row, when the same statement is deferred again', async () => {
    await db.transaction(async (scope) => {
      await scope.defer(insert(2, 1));
      for (let i = 0; i < 3; i++) await scope.defer(addTo(1, 5));
    });
    expect(await rows()).toEqual([
      { k: 1, n: 15, note: 'none' },
      { k: 2, n: 1, note: 'none' },
    ]);
  });

  it('rolls the whole transaction back when a deferred statement fails', async () => {
    await db.run(insert(1, 1));
    const failed = db.transaction(async (scope) => {
      await scope.run(insert(9, 9));
      await scope.defer(insert(5, 5));
      await scope.defer(insert(1, 2));
    });
    await expect(failed).rejects.toThrow();
    expect(await rows()).toEqual([{ k: 1, n: 1, note: 'none' }]);
  });

  it('leaves a quoted text that looks like a placeholder as it is', async () => {
    await db.transaction(async (scope) => {
      await scope.defer(insert(1, 1));
      await scope.defer(
        textQuery(`INSERT INTO deferred_probe (k, n, note) VALUES (${p(1)}, ${p(2)}, '$1 stays')`, [2, 2]),
      );
    });
    expect(await rows()).toEqual([
      { k: 1, n: 1, note: 'none' },
      { k: 2, n: 2, note: '$1 stays' },
    ]);
  });

  it('runs a statement after the deferred ones, in their order, and answers its own rows', async () => {
    const answered = await db.transaction(async (scope) => {
      await scope.defer(insert(1, 1));
      await scope.defer(
        textQuery(`INSERT INTO deferred_probe (k, n, note) VALUES (${p(1)}, ${p(2)}, ${p(3)})`, [2, 2, 'x']),
      );
      return scope.runAfterDeferred(
        textQuery<{ n: number }>(`UPDATE deferred_total SET n = n + ${p(1)} WHERE k = 1 RETURNING n`, [5]),
      );
    });
    expect(answered).toHaveLength(1);
    const total = await sql<{ n: number }>`SELECT n FROM deferred_total WHERE k = 1`.execute(db.kysely);
    expect(answered[0]?.n).toBe(total.rows[0]?.n);
    expect(await rows()).toEqual([
      { k: 1, n: 1, note: 'none' },
      { k: 2, n: 2, note: 'x' },
    ]);
    const log = await sql<{ what: string }>`SELECT what FROM deferred_log ORDER BY seq`.execute(db.kysely);
    expect(log.rows.map((row) => row.what)).toEqual([
      'deferred_probe INSERT',
      'deferred_probe INSERT',
      'deferred_total UPDATE',
    ]);
  });

  it('runs a statement deferred outside a transaction at once', async () => {
    await db.defer(insert(7, 7));
    expect(await rows()).toEqual([{ k: 7, n: 7, note: 'none' }]);
  });

  // What saves the round trips: on PostgreSQL nothing is sent until the scope's next statement or the commit (a read
  // through `kysely`, which defer's callers promise not to make, shows it); SQLite has none to save and runs it.
  it(postgres ? 'sends nothing until the next statement' : 'runs it at once', async () => {
    const seenBefore = await db.transaction(async (scope) => {
      await scope.defer(insert(1, 1));
      await scope.defer(addTo(2, 2));
      return (await sql<{ k: number }>`SELECT k FROM deferred_probe`.execute(scope.kysely)).rows.length;
    });
    expect(seenBefore).toBe(postgres ? 0 : 2);
    expect(await rows()).toHaveLength(2);
  });
});
