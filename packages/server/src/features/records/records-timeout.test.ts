import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, openDatabase } from '../../db/database.js';
import { postgresDialect } from '../../db/dialect/postgres.js';
import { userTableName } from '../../db/identifiers.js';
import { createItemsTable } from '../../testing/records.fixtures.js';
import { type SignedInAccount, signIn } from '../../testing/tables.fixtures.js';
import { startTestServer, type TestServer, testDialects } from '../../testing/test-server.js';
import type { TableDefinition } from '../tables/tables.service.js';
import { translateDatabaseError } from './record-errors.js';
import { listRecords } from './records.service.js';

// On PostgreSQL every pooled connection has a statement_timeout, so a costly filter is stopped; what the
// client sent then answers a 400 that says what to do (57014), never a bare 500.

const TIMEOUT_BODY = { status: 400, code: '57014', message: 'The query took too long; narrow the filter' };

describe('the statement timeout error', () => {
  it('is translated into a 400 that asks to narrow the filter', () => {
    const error = Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' });
    const at = new Date().toISOString();
    const table: TableDefinition = {
      id: 1,
      accountId: 'a',
      name: 'items',
      description: null,
      schema: {},
      schemaVersion: 1,
      createdAt: at,
      updatedAt: at,
    };
    expect(translateDatabaseError(postgresDialect, error, table)).toMatchObject(TIMEOUT_BODY);
  });
});

describe.runIf(testDialects.includes('postgres'))('a filter slower than statement_timeout on postgres', () => {
  let server: TestServer;
  let alice: SignedInAccount;
  let table: TableDefinition;
  let shortTimeout: Db;

  beforeAll(async () => {
    server = await startTestServer('postgres');
    alice = await signIn(server, 'alice');
    table = await createItemsTable(server.app.basalt.db, alice);
    // 20,000 rows of 4,000 characters: a regular expression over all of them takes far longer than 50 ms.
    await sql`INSERT INTO ${sql.raw(`"${userTableName(table.id)}"`)} (title, note)
      SELECT 'row ' || g, repeat('ab', 2000) FROM generate_series(1, 20000) AS g`.execute(server.app.basalt.db.kysely);
    shortTimeout = openDatabase(server.config, { statementTimeoutMs: 50 });
  });
  afterAll(async () => {
    await shortTimeout?.close();
    await server.close();
  });

  it('is stopped and answered with a 400', async () => {
    const where = { kind: 'pattern', column: 'note', op: 'match', pattern: '(a|b)*c' } as const;
    await expect(listRecords(shortTimeout, alice, table, { where })).rejects.toMatchObject(TIMEOUT_BODY);
    // The pool's connections stay usable.
    expect(await listRecords(shortTimeout, alice, table, { limit: 1 })).toHaveLength(1);
  });
});
