import pg from 'pg';
import Cursor from 'pg-cursor';
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

// A session on a PostgreSQL target. Statements that return rows are read through a cursor, FETCH_BATCH rows at
// a time: the first maxRows are kept and the rest only counted, so a million-row SELECT costs flat memory. The
// server enforces the run's timeout on each statement (statement_timeout, set at connection); the runner also
// cancels the running statement from a second connection when the run's own deadline passes.

const FETCH_BATCH = 2000;
// Dates and times stay as PostgreSQL wrote them (no time zone shift through JavaScript's Date).
const TEXT_TYPES = new Set([1082, 1083, 1114, 1184, 1186, 1266]);
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    TEXT_TYPES.has(oid)
      ? (value: string) => value
      : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

function clientConfig(endpoint: TargetEndpoint, timeoutMs: number, connectTimeoutMs: number): pg.ClientConfig {
  return {
    host: endpoint.host,
    port: endpoint.port,
    database: endpoint.database ?? undefined,
    user: endpoint.user ?? undefined,
    password: endpoint.password ?? undefined,
    ssl: endpoint.ssl ? { rejectUnauthorized: false } : undefined,
    connectionTimeoutMillis: connectTimeoutMs,
    statement_timeout: timeoutMs,
    application_name: 'basalt-sql',
    types,
  };
}

function statementError(error: unknown): TargetError {
  if (!(error instanceof Error)) return new TargetError(String(error), 'statement');
  const detail = (error as { detail?: unknown }).detail;
  return new TargetError(
    typeof detail === 'string' && detail ? `${error.message} (${detail})` : error.message,
    'statement',
  );
}

async function readCursor(client: pg.Client, text: string, maxRows: number): Promise<StatementOutcome> {
  const cursor = client.query(new Cursor(text, [], { types }));
  const rows: ResultRow[] = [];
  let rowCount = 0;
  try {
    for (;;) {
      const batch: Record<string, unknown>[] = await cursor.read(FETCH_BATCH);
      if (batch.length === 0) break;
      rowCount += batch.length;
      for (const row of batch) {
        if (rows.length >= maxRows) break;
        rows.push(jsonRow(row));
      }
    }
  } finally {
    await cursor.close().catch(() => {});
  }
  return { rowCount, rows };
}

/** openPostgresTarget connects to a PostgreSQL target, or throws a TargetError naming its host. */
export async function openPostgresTarget(
  endpoint: TargetEndpoint,
  options: { timeoutMs: number; connectTimeoutMs: number },
): Promise<TargetSession> {
  const config = clientConfig(endpoint, options.timeoutMs, options.connectTimeoutMs);
  const client = new pg.Client(config);
  // A dropped connection is reported by the statement that was running; this keeps it from crashing the process.
  client.on('error', () => {});
  let pid = 0;
  try {
    await withTimeout(client.connect(), options.connectTimeoutMs + 500, () => new Error('timeout'));
    pid = (await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]?.pid ?? 0;
  } catch (error) {
    client.end().catch(() => {});
    throw connectError(endpoint, error, options.connectTimeoutMs);
  }

  const command = async (sql: string) => {
    try {
      await client.query(sql);
    } catch (error) {
      throw statementError(error);
    }
  };

  return {
    dialect: 'postgres',
    flavour: 'postgres',
    async run(statement: SqlStatement, maxRows: number) {
      try {
        if (statement.returnsRows) return await readCursor(client, statement.text, maxRows);
        const result = await client.query(statement.text);
        return { rowCount: result.rowCount ?? 0, rows: (result.rows ?? []).slice(0, maxRows).map(jsonRow) };
      } catch (error) {
        throw statementError(error);
      }
    },
    command,
    async begin(readOnly: boolean) {
      await command(readOnly ? 'BEGIN READ ONLY' : 'BEGIN');
      // A query takes the transaction's snapshot, after which it can no longer be made read-write.
      if (readOnly) await command('SELECT 1');
    },
    async cancel() {
      const canceller = new pg.Client({ ...config, statement_timeout: 2000, connectionTimeoutMillis: 2000 });
      canceller.on('error', () => {});
      try {
        await canceller.connect();
        await canceller.query('select pg_cancel_backend($1)', [pid]);
      } finally {
        await canceller.end().catch(() => {});
      }
    },
    async close(force = false) {
      if (force) {
        // end() would wait for a statement that does not stop: drop the socket under it.
        client.connection.stream.destroy();
      }
      await withTimeout(client.end(), 2000, () => new Error('close timeout')).catch(() => {});
    },
  };
}
