import { SQL_LIMITS, type SqlExecutionResult, type SqlStatementResult } from '@basalt/shared';
import { SERVER_IDENTITY_SQL } from '../../db/server-identity.js';
import type { TargetDialect } from './sql-lexer.js';
import { splitMysql } from './sql-split-mysql.js';
import { splitPostgres } from './sql-split-postgres.js';
import { SqlInputError, type SqlStatement, syntaxErrorAt } from './sql-statements.js';
import type { TargetEndpoint, TargetSession } from './sql-target.js';
import { openMysqlTarget } from './sql-target-mysql.js';
import { openPostgresTarget } from './sql-target-postgres.js';
import { replaceVariables } from './sql-variables.js';

// One run of SQL against a target, whatever asked for it (a file, the editor, the bench). The options:
// - transactional: every statement in one transaction, committed at the end. With stopOnError off, each statement
//   runs under a savepoint, so a failed one is undone alone and the later ones still run.
// - stopOnError: the first failure ends the run (and rolls the transaction back).
// - dryRun: PostgreSQL runs everything in a transaction and rolls it back. MySQL/MariaDB commit DDL on their own,
//   so there a dry run parses every statement and EXPLAINs those that can be explained, and runs nothing.
// - timeout: the whole run's limit. The server enforces it on each statement (statement_timeout /
//   max_statement_time) and a watchdog cancels the running statement when the run's deadline passes; a
//   connection that cannot be made fails within it too, naming the host.
// Statements that control the transaction (BEGIN, COMMIT…) are refused where the run holds the transaction.

/** RunSettings are a run's options, and whether it must only read (the instance's own database). */
export interface RunSettings {
  dryRun: boolean;
  transactional: boolean;
  stopOnError: boolean;
  timeout: number;
  variableReplacements: Record<string, string>;
  /** readOnly: one read-only transaction, always rolled back, whatever the other options say. */
  readOnly?: boolean;
}

/**
 * OwnDatabaseGuard keeps the instance's own database from being a target: `ownIdentity` names it
 * (db/server-identity.ts; null on SQLite, which no connection can reach), and `mayRead` lets an instance
 * administrator run read-only queries on it.
 */
export interface OwnDatabaseGuard {
  ownIdentity: string | null;
  mayRead: boolean;
}

/** OwnDatabaseRefused is a run whose target is the instance's own database. */
export class OwnDatabaseRefused extends Error {
  constructor() {
    super(
      "This connection points at Basalt's own database, whose tables are the instance's system tables: it cannot be a target (an instance administrator may run read-only queries on it)",
    );
    this.name = 'OwnDatabaseRefused';
  }
}

/** CONNECT_TIMEOUT_MAX_MS bounds the wait for a connection, within the run's timeout. */
const CONNECT_TIMEOUT_MAX_MS = 15_000;
/** CANCEL_GRACE_MS is how long a cancelled statement has to stop before its connection is dropped. */
const CANCEL_GRACE_MS = 1500;
const SAVEPOINT = 'basalt_statement';
const MYSQL_DDL = /^(CREATE|ALTER|DROP|RENAME|TRUNCATE)\b/i;

const dialectOf = (endpoint: TargetEndpoint): TargetDialect =>
  endpoint.engine === 'POSTGRESQL' ? 'postgres' : 'mysql';

/** openTarget connects to a target, or throws a TargetError naming its host. */
export function openTarget(endpoint: TargetEndpoint, timeoutMs: number): Promise<TargetSession> {
  const settings = { timeoutMs, connectTimeoutMs: Math.min(timeoutMs, CONNECT_TIMEOUT_MAX_MS) };
  return endpoint.engine === 'POSTGRESQL'
    ? openPostgresTarget(endpoint, settings)
    : openMysqlTarget(endpoint, settings);
}

const IDENTITY_STATEMENT: SqlStatement = {
  text: SERVER_IDENTITY_SQL,
  offset: 0,
  returnsRows: false,
  transactionControl: false,
  explainable: false,
  definesTable: null,
};

const elapsed = (since: number) => Math.round((performance.now() - since) * 100) / 100;

/** runSql splits a text and runs it on a target; SqlInputError and TargetError (connection) are thrown. */
export async function runSql(
  endpoint: TargetEndpoint,
  sql: string,
  settings: RunSettings,
  guard: OwnDatabaseGuard = { ownIdentity: null, mayRead: false },
): Promise<SqlExecutionResult> {
  const dialect = dialectOf(endpoint);
  const replaced = replaceVariables(sql, dialect, settings.variableReplacements);
  const placeInOriginal = (error: unknown): never => {
    if (error instanceof SqlInputError && error.offset !== null) {
      throw syntaxErrorAt(sql, replaced.originalOffset(error.offset), error.reason);
    }
    throw error;
  };
  // PostgreSQL's parser needs no server: a text that does not parse fails before any connection.
  const early = dialect === 'postgres' ? await splitPostgres(replaced.text).catch(placeInOriginal) : null;
  const session = await openTarget(endpoint, settings.timeout);
  try {
    if (guard.ownIdentity && session.dialect === 'postgres') {
      const identity = await session.run(IDENTITY_STATEMENT, 1);
      if (identity.rows[0]?.identity === guard.ownIdentity) {
        if (!guard.mayRead) throw new OwnDatabaseRefused();
        settings = { ...settings, readOnly: true };
      }
    }
    const statements =
      early ??
      (await splitMysql(replaced.text, {
        flavour: session.flavour === 'mariadb' ? 'mariadb' : 'mysql',
        serverCheck: session.serverCheck,
      }).catch(placeInOriginal));
    return await runStatements(session, statements, settings);
  } finally {
    await session.close();
  }
}

interface RunState {
  results: SqlStatementResult[];
  timedOut: boolean;
  running: Promise<unknown> | null;
}

async function runStatements(
  session: TargetSession,
  statements: SqlStatement[],
  settings: RunSettings,
): Promise<SqlExecutionResult> {
  const mysqlDryRun = settings.dryRun && session.dialect === 'mysql' && !settings.readOnly;
  const state: RunState = { results: [], timedOut: false, running: null };
  const watchdog = setTimeout(() => {
    state.timedOut = true;
    const running = state.running;
    session.cancel().catch(() => {});
    // A statement that ignores the cancel loses its connection.
    setTimeout(() => {
      if (state.running === running && running) session.close(true).catch(() => {});
    }, CANCEL_GRACE_MS).unref();
  }, settings.timeout);
  try {
    if (mysqlDryRun) await validateMysql(session, statements, settings, state);
    else await execute(session, statements, settings, state);
  } finally {
    clearTimeout(watchdog);
  }
  return summarise(session, statements, settings, state);
}

function outcomeOf(statement: SqlStatement, started: number): SqlStatementResult {
  return {
    statement: statement.text,
    success: true,
    executionTime: elapsed(started),
    rowCount: 0,
    result: [],
    error: null,
  };
}

function failure(statement: SqlStatement, started: number, error: string): SqlStatementResult {
  return { ...outcomeOf(statement, started), success: false, error };
}

const timeoutMessage = (settings: RunSettings) => `Cancelled: the run passed its timeout of ${settings.timeout} ms`;

async function execute(session: TargetSession, statements: SqlStatement[], settings: RunSettings, state: RunState) {
  const holdsTransaction =
    settings.transactional || settings.readOnly === true || (settings.dryRun && session.dialect === 'postgres');
  const savepoints = holdsTransaction && !settings.stopOnError;
  let healthy = true; // false once the transaction must be rolled back
  if (holdsTransaction) await session.begin(settings.readOnly === true);
  for (const statement of statements) {
    if (state.timedOut) break;
    const started = performance.now();
    if (holdsTransaction && statement.transactionControl) {
      state.results.push(
        failure(
          statement,
          started,
          'Transaction control statements cannot run here: this run holds its own transaction (turn off Transactional and Dry run to run them)',
        ),
      );
      if (settings.stopOnError) break;
      continue;
    }
    try {
      if (savepoints) await session.command(`SAVEPOINT ${SAVEPOINT}`);
      state.running = session.run(statement, SQL_LIMITS.resultRows);
      const outcome = await (state.running as ReturnType<TargetSession['run']>);
      state.running = null;
      if (savepoints) await session.command(`RELEASE SAVEPOINT ${SAVEPOINT}`).catch(() => {});
      state.results.push({ ...outcomeOf(statement, started), rowCount: outcome.rowCount, result: outcome.rows });
    } catch (error) {
      state.running = null;
      const message = state.timedOut
        ? timeoutMessage(settings)
        : error instanceof Error
          ? error.message
          : String(error);
      state.results.push(failure(statement, started, message));
      if (savepoints && !state.timedOut) {
        // MySQL drops savepoints when a DDL commits on its own: nothing is left to undo then.
        await session.command(`ROLLBACK TO SAVEPOINT ${SAVEPOINT}`).catch(() => {});
      } else if (holdsTransaction) healthy = false;
      if (settings.stopOnError || state.timedOut) break;
    }
  }
  if (!holdsTransaction) return;
  const keep = healthy && !state.timedOut && !settings.dryRun && settings.readOnly !== true;
  await session.command(keep ? 'COMMIT' : 'ROLLBACK').catch((error: unknown) => {
    // A COMMIT refused by the server (a deferred constraint) is the run's last failure.
    if (keep) {
      const last = state.results.at(-1);
      if (last) {
        last.success = false;
        last.error = `The transaction could not commit: ${error instanceof Error ? error.message : String(error)}`;
      }
    }
  });
}

// A MySQL dry run: every statement was parsed when the text was split; those EXPLAIN understands are explained.
async function validateMysql(
  session: TargetSession,
  statements: SqlStatement[],
  settings: RunSettings,
  state: RunState,
) {
  const createdTables = new Set<string>();
  for (const statement of statements) {
    if (state.timedOut) break;
    const started = performance.now();
    if (!statement.explainable) {
      if (statement.definesTable) createdTables.add(statement.definesTable);
      state.results.push(outcomeOf(statement, started));
      continue;
    }
    try {
      const explained = await session.run({ ...statement, text: `EXPLAIN ${statement.text}` }, SQL_LIMITS.resultRows);
      state.results.push({ ...outcomeOf(statement, started), rowCount: explained.rowCount, result: explained.rows });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      // A table this text creates earlier does not exist yet: the statement parsed, it just cannot be explained.
      const missing = /Table '(?:[^.']*\.)?([^']*)' doesn't exist/i.exec(message)?.[1]?.toLowerCase();
      if (missing && createdTables.has(missing)) {
        state.results.push(outcomeOf(statement, started));
        continue;
      }
      state.results.push(failure(statement, started, state.timedOut ? timeoutMessage(settings) : message));
      if (settings.stopOnError || state.timedOut) break;
    }
  }
}

function summarise(
  session: TargetSession,
  statements: SqlStatement[],
  settings: RunSettings,
  state: RunState,
): SqlExecutionResult {
  const total = statements.length;
  const succeeded = state.results.filter((r) => r.success).length;
  const failed = state.results.length - succeeded;
  const notRun = total - state.results.length;
  const parts: string[] = [];
  const dryRun = settings.dryRun || settings.readOnly === true;
  if (settings.dryRun && session.dialect === 'mysql' && !settings.readOnly) {
    parts.push(
      `Validation only: ${succeeded} of ${total} statements passed. Nothing was executed: MySQL commits DDL on its own, so a dry run cannot run and roll back; every statement was parsed, and SELECT, INSERT, UPDATE, DELETE and REPLACE were checked with EXPLAIN.`,
    );
  } else if (dryRun) {
    parts.push(
      `${settings.readOnly ? 'Read-only run' : 'Validation only'}: ${succeeded} of ${total} statements succeeded; every change was rolled back.`,
    );
  } else {
    parts.push(`Executed: ${succeeded} of ${total} statements succeeded.`);
    const heldTransaction = settings.transactional;
    if (failed > 0 && heldTransaction && settings.stopOnError) parts.push('The transaction was rolled back.');
    else if (failed > 0 && heldTransaction) parts.push('Failed statements were undone; the others were committed.');
    if (state.timedOut && heldTransaction) parts.push('The transaction was rolled back.');
    if (heldTransaction && session.dialect === 'mysql' && statements.some((s) => MYSQL_DDL.test(s.text))) {
      parts.push('MySQL commits DDL statements (CREATE, ALTER, DROP…) on its own; they cannot be rolled back.');
    }
  }
  if (state.timedOut) parts.push(`The run passed its timeout of ${settings.timeout} ms and was stopped.`);
  if (notRun > 0) parts.push(`${notRun} statement${notRun === 1 ? ' was' : 's were'} not run.`);
  return {
    message: parts.join(' '),
    dryRun,
    summary: { totalStatements: total, successfulStatements: succeeded, failedStatements: failed, dryRun },
    results: state.results,
  };
}
