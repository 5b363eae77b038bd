import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer, testDialects } from '../testing/test-server.js';
import type { Db } from './database.js';
import { textQuery } from './sql-text.js';

// Db.readInBackground: reads that scan much (an account's storage) must not stop the event loop. On SQLite they
// run on the background worker's own connection: they see what is committed, and they do not wait for a write
// transaction that holds the server's one connection (a read there would wait for it, and here for ever).

describe.each(testDialects)('background reads on %s', (dialect) => {
  let server: TestServer;
  let db: Db;
  const p = dialect === 'postgres' ? '$1' : '?';
  const count = () => textQuery<{ n: number | string }>('SELECT count(*) AS n FROM background_probe', []);

  beforeAll(async () => {
    server = await startTestServer(dialect);
    db = server.app.basalt.db;
    await sql`CREATE TABLE background_probe (k integer PRIMARY KEY)`.execute(db.kysely);
    await sql`INSERT INTO background_probe (k) VALUES (1), (2)`.execute(db.kysely);
  }, 60_000);

  afterAll(async () => {
    await server?.close();
  });

  it('reads what is committed while a write transaction is open, without waiting for it', async () => {
    const seen = await db.transaction(async (scope) => {
      await scope.run(textQuery(`INSERT INTO background_probe (k) VALUES (${p})`, [3]));
      const [row] = await db.readInBackground(count());
      return Number(row?.n);
    });
    expect(seen).toBe(2);
    const [after] = await db.readInBackground(count());
    expect(Number(after?.n)).toBe(3);
  });

  it('reads in a scope within its transaction', async () => {
    const seen = await db.transaction(async (scope) => {
      await scope.run(textQuery(`INSERT INTO background_probe (k) VALUES (${p})`, [4]));
      const [row] = await scope.readInBackground(count());
      return Number(row?.n);
    });
    expect(seen).toBe(4);
  });

  it('refuses a statement the engine refuses, and goes on reading', async () => {
    await expect(db.readInBackground(textQuery('SELECT nope FROM background_probe', []))).rejects.toThrow(/nope/);
    const [row] = await db.readInBackground(count());
    expect(Number(row?.n)).toBe(4);
  });

  it('measures a table’s pages with its indexes', async () => {
    const bytes = await db.dialect.userTables.tablesSizeBytes(db.readInBackground, ['background_probe']);
    expect(bytes).toBeGreaterThan(0);
    expect(await db.dialect.userTables.tablesSizeBytes(db.readInBackground, [])).toBe(0);
  });
});
