import mysql from 'mysql2';
import type { SqlStatement } from './sql-statements.js';
import {
  connectError,
  jsonRow,
  type ResultRow,
  type StatementOutcome,
  type TargetEndpoint,
  TargetError,
  type TargetSession,
  withTimeout,
} from './sql-target.js';

// A session on a MySQL or MariaDB target. Rows are read as the server sends them (the driver's row events): the
// first maxRows are kept, the rest only counted, so a million-row SELECT costs flat memory. The run's timeout is
// set on the server (MariaDB: max_statement_time, every statement; MySQL: max_execution_time, SELECTs only) and
// the runner also stops the running statement with KILL QUERY from a second connection when its deadline passes.

const ER_PARSE_ERROR = 1064;

function options(endpoint: TargetEndpoint, connectTimeoutMs: number): mysql.ConnectionOptions {
  return {
    host: endpoint.host,
    port: endpoint.port,
    database: endpoint.database ?? undefined,
    user: endpoint.user ?? undefined,
    password: endpoint.password ?? undefined,
    ssl: endpoint.ssl ? { rejectUnauthorized: false } : undefined,
    connectTimeout: connectTimeoutMs,
    // Values as the server wrote them: dates without a time zone shift, big numbers exact.
    dateStrings: true,
    supportBigNumbers: true,
    bigNumberStrings: true,
    multipleStatements: false,
    charset: 'utf8mb4',
  };
}

function connect(config: mysql.ConnectionOptions): Promise<mysql.Connection> {
  const connection = mysql.createConnection(config);
  // A dropped connection is reported by the statement that was running; this keeps it from crashing the process.
  connection.on('error', () => {});
  return new Promise((resolve, reject) =>
    connection.connect((error) => {
      if (error) {
        connection.destroy();
        reject(error);
      } else resolve(connection);
    }),
  );
}

function statementError(error: unknown): TargetError {
  return new TargetError(error instanceof Error ? error.message : String(error), 'statement');
}

function stream(connection: mysql.Connection, sql: string, maxRows: number): Promise<StatementOutcome> {
  return new Promise((resolve, reject) => {
    const rows: ResultRow[] = [];
    let returned = 0;
    let changed = 0;
    let sawRows = false;
    let inRows = false;
    let failed: unknown = null;
    const query = connection.query(sql);
    query.on('fields', (fields: unknown) => {
      inRows = Array.isArray(fields);
      if (inRows) sawRows = true;
    });
    query.on('result', (row: unknown) => {
      if (inRows) {
        returned++;
        if (rows.length < maxRows) rows.push(jsonRow(row as Record<string, unknown>));
      } else changed += Number((row as { affectedRows?: number }).affectedRows ?? 0);
    });
    query.on('error', (error: unknown) => {
      failed = error;
    });
    query.on('end', () => {
      if (failed) reject(statementError(failed));
      else resolve({ rowCount: sawRows ? returned : changed, rows });
    });
  });
}

/** openMysqlTarget connects to a MySQL/MariaDB target, or throws a TargetError naming its host. */
export async function openMysqlTarget(
  endpoint: TargetEndpoint,
  settings: { timeoutMs: number; connectTimeoutMs: number },
): Promise<TargetSession> {
  const config = options(endpoint, settings.connectTimeoutMs);
  let connection: mysql.Connection;
  let flavour: 'mysql' | 'mariadb';
  try {
    connection = await withTimeout(connect(config), settings.connectTimeoutMs + 500, () => new Error('timeout'));
    const version = await stream(connection, 'SELECT VERSION() AS v', 1);
    flavour = /mariadb/i.test(String(version.rows[0]?.v ?? '')) ? 'mariadb' : 'mysql';
  } catch (error) {
    throw connectError(endpoint, error, settings.connectTimeoutMs);
  }
  const run = (sql: string, maxRows = 0) => stream(connection, sql, maxRows);
  await run(
    flavour === 'mariadb'
      ? `SET SESSION max_statement_time = ${settings.timeoutMs / 1000}`
      : `SET SESSION max_execution_time = ${Math.round(settings.timeoutMs)}`,
  );

  return {
    dialect: 'mysql',
    flavour,
    run: (statement: SqlStatement, maxRows: number) => run(statement.text, maxRows),
    async command(sql: string) {
      await run(sql);
    },
    async begin(readOnly: boolean) {
      // With autocommit off, the statements after a DDL (which commits on its own) are again in a transaction.
      await run('SET autocommit = 0');
      await run(readOnly ? 'START TRANSACTION READ ONLY' : 'START TRANSACTION');
    },
    async serverCheck(statement: string) {
      // COM_STMT_PREPARE parses without running; only a syntax error (1064) means it does not parse.
      return new Promise<string | null>((resolve) => {
        connection.prepare(statement, (error, prepared) => {
          if (prepared) prepared.close();
          connection.unprepare(statement);
          resolve(error && error.errno === ER_PARSE_ERROR ? error.message : null);
        });
      });
    },
    async cancel() {
      const killer = await connect({ ...config, connectTimeout: 2000 });
      try {
        await stream(killer, `KILL QUERY ${Number(connection.threadId)}`, 0);
      } finally {
        killer.destroy();
      }
    },
    async close(force = false) {
      if (force) {
        connection.destroy();
        return;
      }
      await withTimeout(
        new Promise<void>((resolve) => connection.end(() => resolve())),
        2000,
        () => new Error('close timeout'),
      ).catch(() => connection.destroy());
    },
  };
}
