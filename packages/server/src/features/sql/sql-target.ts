import type { TargetDialect } from './sql-lexer.js';
import type { ServerParseCheck } from './sql-split-mysql.js';
import type { SqlStatement } from './sql-statements.js';

// A target is a database that a project registered (database_connections) and SQL runs against: PostgreSQL or
// MySQL/MariaDB. One run opens one session on it (sql-target-postgres.ts, sql-target-mysql.ts) and closes it.

/** TargetEndpoint is where a target is and how to sign in: what a connection's string or details give. */
export interface TargetEndpoint {
  engine: 'POSTGRESQL' | 'MYSQL';
  host: string;
  port: number;
  database: string | null;
  user: string | null;
  password: string | null;
  ssl: boolean;
}

/** ResultRow is one row of a statement's result, its values ready for JSON. */
export type ResultRow = Record<string, unknown>;

/** StatementOutcome is what a statement gave: the first rows, and how many rows it returned or changed. */
export interface StatementOutcome {
  rowCount: number;
  rows: ResultRow[];
}

/** TargetSession is one open connection to a target. */
export interface TargetSession {
  dialect: TargetDialect;
  /** flavour is 'mariadb' or 'mysql' on a MySQL-protocol server, 'postgres' on PostgreSQL. */
  flavour: 'postgres' | 'mysql' | 'mariadb';
  /** run runs one statement and keeps at most maxRows of its rows, reading the rest without keeping them. */
  run(statement: SqlStatement, maxRows: number): Promise<StatementOutcome>;
  /** command runs Basalt's own control statement (BEGIN, SAVEPOINT, ROLLBACK…). */
  command(sql: string): Promise<void>;
  /** begin opens the run's transaction (read-only where asked). */
  begin(readOnly: boolean): Promise<void>;
  /** serverCheck asks the server's parser about a statement (MySQL: sql-split-mysql.ts). */
  serverCheck?: ServerParseCheck;
  /** cancel stops the statement running now, from another connection. */
  cancel(): Promise<void>;
  /** close ends the session; with `force` it drops the connection without waiting for the server. */
  close(force?: boolean): Promise<void>;
}

/** TargetError is a target's refusal of a statement or a connection, with the message to show. */
export class TargetError extends Error {
  constructor(
    message: string,
    readonly kind: 'connect' | 'statement',
  ) {
    super(message);
    this.name = 'TargetError';
  }
}

const CONNECT_REASONS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host not found',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ECONNRESET: 'connection reset',
};

/** connectError names the host in a failed connection's message, whatever the driver said. */
export function connectError(endpoint: TargetEndpoint, error: unknown, timeoutMs: number): TargetError {
  const code = (error as { code?: unknown })?.code;
  const message = error instanceof Error ? error.message : String(error);
  const reason =
    (typeof code === 'string' && CONNECT_REASONS[code]) ||
    (code === 'ETIMEDOUT' || /timeout|timed out/i.test(message) ? `no answer within ${timeoutMs} ms` : message);
  return new TargetError(`Could not connect to ${endpoint.host}:${endpoint.port}: ${reason}`, 'connect');
}

/** jsonValue makes a driver's value safe for JSON: bytes as \x hex, big integers as text. */
export function jsonValue(value: unknown): unknown {
  if (Buffer.isBuffer(value)) return `\\x${value.toString('hex')}`;
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  return value;
}

/** jsonRow applies jsonValue to every value of a row. */
export function jsonRow(row: Record<string, unknown>): ResultRow {
  const out: ResultRow = {};
  for (const key of Object.keys(row)) out[key] = jsonValue(row[key]);
  return out;
}

/** withTimeout rejects when a promise has not settled within ms (used where a driver has no timeout of its own). */
export function withTimeout<T>(promise: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), ms);
  });
  return Promise.race([promise, limit]).finally(() => clearTimeout(timer));
}
