import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../../testing/account.fixtures.js';
import { type ApiScenario, runScenario, type SignedInTestUser } from '../../testing/auth.fixtures.js';
import { createTestProject } from '../../testing/sql.fixtures.js';
import { type SqlSuite, startSqlSuite, uploadSql } from '../../testing/sql-suite.fixtures.js';
import type { TestTarget } from '../../testing/sql-targets.fixtures.js';
import { type TestServer, testDialects } from '../../testing/test-server.js';

// SQL Execution's runs and history on both of Basalt's engines, against a real PostgreSQL and MariaDB target:
// what a developer does, and bad input (never a 500).

const fieldError = (message: string) => ({ code: 'validation_failed', message });

describe.each(testDialects)('SQL runs API on %s', (dialect) => {
  let suite: SqlSuite;
  let server: TestServer;
  let pgTarget: TestTarget;
  let mysqlTarget: TestTarget;
  let alice: SignedInTestUser;
  let bob: SignedInTestUser;
  let carol: SignedInTestUser;
  let mallory: SignedInTestUser;
  let project: string;
  let pgConnection: number;
  let malloryConnection: number;

  beforeAll(async () => {
    suite = await startSqlSuite(dialect);
    ({ server, pgTarget, mysqlTarget, alice, bob, carol, mallory, project, pgConnection, malloryConnection } = suite);
  }, 60_000);
  afterAll(() => suite.close());

  const url = (path: string) => `/api/projects/${project}${path}`;
  const upload = (user: SignedInTestUser, name: string, content: string | Buffer, projectId = project) =>
    uploadSql(server, user, projectId, name, content);

  describe('runs', () => {
    it('runs a file on the default connection, then as a dry run, and keeps both in the history', async () => {
      const file = await upload(
        bob,
        'migrate.sql',
        "create table notes (id int primary key, body text);\ninsert into notes values (1, 'a;b'), (2, 'c');\nselect * from notes order by id;",
      );
      const dry = await server.request('POST', url('/files/execute-sql'), {
        headers: bearer(bob),
        json: { fileId: file.body.id, options: { dryRun: true } },
      });
      expect(dry.body).toMatchObject({
        dryRun: true,
        summary: { totalStatements: 3, successfulStatements: 3, failedStatements: 0, dryRun: true },
      });
      expect(await pgTarget.query("select to_regclass('notes') as t")).toEqual([{ t: null }]);
      const res = await server.request('POST', url('/files/execute-sql'), {
        headers: bearer(bob),
        json: { fileId: file.body.id },
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        dryRun: false,
        summary: { totalStatements: 3, successfulStatements: 3, failedStatements: 0, dryRun: false },
        results: [
          { statement: 'create table notes (id int primary key, body text)', success: true, error: null },
          { rowCount: 2 },
          {
            rowCount: 2,
            result: [
              { id: 1, body: 'a;b' },
              { id: 2, body: 'c' },
            ],
          },
        ],
      });
      const history = await server.request('GET', url('/query-history'), { headers: bearer(alice) });
      expect(history.body.slice(0, 2)).toMatchObject([
        { successful: true, dryRun: false, fileId: file.body.id, connectionId: pgConnection, rowsAffected: 4 },
        { successful: true, dryRun: true, fileId: file.body.id },
      ]);
    });

    it('runs direct SQL with variables and reports failures per statement', async () => {
      const res = await server.request('POST', url('/execute-direct-sql'), {
        headers: bearer(bob),
        json: {
          sql: 'select {{name}} as name; select 1/0; select 2',
          connectionId: pgConnection,
          options: { stopOnError: false, transactional: false, variableReplacements: { name: "o'brien" } },
        },
      });
      expect(res.body.summary).toMatchObject({ totalStatements: 3, successfulStatements: 2, failedStatements: 1 });
      expect(res.body.results[0].result).toEqual([{ name: "o'brien" }]);
      expect(res.body.results[1]).toMatchObject({ success: false, error: 'division by zero' });
    });

    it('runs on MariaDB', async () => {
      const conn = await server.request('POST', url('/database-connections'), {
        headers: bearer(bob),
        json: {
          name: 'Maria',
          provider: 'CUSTOM',
          engine: 'MYSQL',
          connectionDetails: {
            host: mysqlTarget.endpoint.host,
            port: mysqlTarget.endpoint.port,
            database: mysqlTarget.endpoint.database ?? '',
            username: mysqlTarget.endpoint.user ?? '',
          },
        },
      });
      const res = await server.request('POST', url('/execute-direct-sql'), {
        headers: bearer(bob),
        json: {
          sql: 'CREATE PROCEDURE hello() BEGIN SELECT 1 AS one; END; CALL hello()',
          connectionId: conn.body.id,
          options: { transactional: false },
        },
      });
      expect(res.body.summary).toMatchObject({ totalStatements: 2, successfulStatements: 2 });
      expect(res.body.results[1].result).toEqual([{ one: 1 }]);
      const dry = await server.request('POST', url('/execute-direct-sql'), {
        headers: bearer(bob),
        json: {
          sql: 'CREATE TABLE t (id INT); INSERT INTO t VALUES (1)',
          connectionId: conn.body.id,
          options: { dryRun: true },
        },
      });
      expect(dry.body).toMatchObject({ dryRun: true, summary: { successfulStatements: 2 } });
      expect(dry.body.message).toContain('EXPLAIN');
    });

    const bad: ApiScenario[] = [
      {
        name: 'no file',
        method: 'POST',
        url: () => url('/files/execute-sql'),
        headers: () => bearer(bob),
        json: {},
        status: 400,
        expected: fieldError('Select a SQL file to execute'),
      },
      {
        name: 'fileId 0',
        method: 'POST',
        url: () => url('/files/execute-sql'),
        headers: () => bearer(bob),
        json: { fileId: 0 },
        status: 400,
        expected: fieldError('Select a SQL file to execute'),
      },
      {
        name: 'an unknown file',
        method: 'POST',
        url: () => url('/files/execute-sql'),
        headers: () => bearer(bob),
        json: { fileId: 999999 },
        status: 404,
      },
      {
        name: 'a timeout too short',
        method: 'POST',
        url: () => url('/execute-direct-sql'),
        headers: () => bearer(bob),
        json: { sql: 'select 1', connectionId: 1, options: { timeout: 999 } },
        status: 400,
        expected: fieldError('Timeout must be at least 1000ms'),
      },
      {
        name: 'a timeout too long',
        method: 'POST',
        url: () => url('/execute-direct-sql'),
        headers: () => bearer(bob),
        json: { sql: 'select 1', connectionId: 1, options: { timeout: 300_001 } },
        status: 400,
        expected: fieldError('Timeout cannot exceed 5 minutes'),
      },
      {
        name: 'empty SQL',
        method: 'POST',
        url: () => url('/execute-direct-sql'),
        headers: () => bearer(bob),
        json: { sql: '  ', connectionId: 1 },
        status: 400,
        expected: fieldError('SQL query is required'),
      },
      {
        name: 'no connection',
        method: 'POST',
        url: () => url('/execute-direct-sql'),
        headers: () => bearer(bob),
        json: { sql: 'select 1' },
        status: 400,
        expected: fieldError('Database connection is required'),
      },
      {
        name: 'only comments',
        method: 'POST',
        url: () => url('/execute-direct-sql'),
        headers: () => bearer(bob),
        json: () => ({ sql: '-- nothing', connectionId: pgConnection }),
        status: 400,
        expected: { code: 'sql_empty' },
      },
      {
        name: 'unparsable SQL',
        method: 'POST',
        url: () => url('/execute-direct-sql'),
        headers: () => bearer(bob),
        json: () => ({ sql: 'select 1;\nselec 2', connectionId: pgConnection }),
        status: 400,
        expected: {
          code: 'sql_syntax_error',
          message: 'Syntax error at line 2, column 1: syntax error at or near "selec"',
        },
      },
      {
        name: 'a missing variable',
        method: 'POST',
        url: () => url('/execute-direct-sql'),
        headers: () => bearer(bob),
        json: () => ({ sql: 'select {{x}}', connectionId: pgConnection }),
        status: 400,
        expected: { code: 'sql_variable_missing' },
      },
      {
        name: "another project's connection",
        method: 'POST',
        url: () => url('/execute-direct-sql'),
        headers: () => bearer(bob),
        json: () => ({ sql: 'select 1', connectionId: malloryConnection }),
        status: 404,
      },
      {
        name: 'a VIEWER',
        method: 'POST',
        url: () => url('/execute-direct-sql'),
        headers: () => bearer(carol),
        json: () => ({ sql: 'select 1', connectionId: pgConnection }),
        status: 403,
      },
      {
        name: 'a stranger',
        method: 'POST',
        url: () => url('/execute-direct-sql'),
        headers: () => bearer(mallory),
        json: () => ({ sql: 'select 1', connectionId: pgConnection }),
        status: 404,
      },
      {
        name: 'a stranger’s history',
        method: 'GET',
        url: () => url('/query-history'),
        headers: () => bearer(mallory),
        status: 404,
      },
      {
        name: 'options of the wrong type',
        method: 'POST',
        url: () => url('/execute-direct-sql'),
        headers: () => bearer(bob),
        json: () => ({ sql: 'select 1', connectionId: pgConnection, options: { dryRun: 'yes' } }),
        status: 400,
      },
      {
        name: 'a raw SQL variable value object',
        method: 'POST',
        url: () => url('/execute-direct-sql'),
        headers: () => bearer(bob),
        json: () => ({
          sql: 'select {{x}}',
          connectionId: pgConnection,
          options: { variableReplacements: { x: { raw: 'now()' } } },
        }),
        status: 400,
      },
    ];
    it.each(bad)('refuses $name', async (scenario) => {
      await runScenario(server, scenario);
    });

    it('answers 400 naming the missing connection when a project has none', async () => {
      const empty = await createTestProject(server, bob.id);
      const file = await upload(bob, 'x.sql', 'select 1', empty);
      const res = await server.request('POST', `/api/projects/${empty}/files/execute-sql`, {
        headers: bearer(bob),
        json: { fileId: file.body.id },
      });
      expect(res).toMatchObject({
        status: 400,
        body: { code: 'connection_required', message: expect.stringContaining('database connection') },
      });
    });

    it.runIf(dialect === 'postgres')(
      "refuses Basalt's own database, except read-only queries by an administrator",
      async () => {
        const own = await server.request('POST', url('/database-connections'), {
          headers: bearer(bob),
          json: { name: 'Own', provider: 'CUSTOM', engine: 'POSTGRESQL', connectionString: server.config.databaseUrl },
        });
        const asBob = await server.request('POST', url('/execute-direct-sql'), {
          headers: bearer(bob),
          json: { sql: 'select count(*) from accounts', connectionId: own.body.id },
        });
        expect(asBob).toMatchObject({ status: 403, body: { code: 'own_database_refused' } });
        const read = await server.request('POST', url('/execute-direct-sql'), {
          headers: bearer(alice),
          json: { sql: 'select count(*)::int as n from accounts', connectionId: own.body.id },
        });
        expect(read.body).toMatchObject({ dryRun: true, results: [{ success: true, result: [{ n: 4 }] }] });
        const write = await server.request('POST', url('/execute-direct-sql'), {
          headers: bearer(alice),
          json: {
            sql: "set transaction read write; update accounts set username = 'x'",
            connectionId: own.body.id,
            options: { transactional: false, stopOnError: false },
          },
        });
        expect(write.body.summary).toMatchObject({ successfulStatements: 0, failedStatements: 2 });
        const names = await server.app.basalt.db.kysely.selectFrom('accounts').select('username').execute();
        expect(names.map((r) => r.username)).not.toContain('x');
      },
    );
  });
});
