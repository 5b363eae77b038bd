import {
  executeDirectSqlSchema,
  executeSqlFileSchema,
  type QueryHistoryEntry,
  SQL_LIMITS,
  type SqlExecutionResult,
} from '@basalt/shared';
import type { Db } from '../../db/database.js';
import { type ApiError, badRequest, forbidden } from '../../http/errors.js';
import { parseInput } from '../../http/validation.js';
import type { Actor } from '../../lib/actor/actor.js';
import { requireSqlAccess } from './sql-access.js';
import { type ResolvedConnection, resolveConnection } from './sql-connections.service.js';
import { findConnectionOf, findFirstActiveConnection } from './sql-connections.store.js';
import type { SqlDeps } from './sql-deps.js';
import { readSqlFile } from './sql-files.service.js';
import { type HistoryRow, insertHistory, listHistoryOf } from './sql-history.store.js';
import { OwnDatabaseRefused, type RunSettings, runSql } from './sql-run.js';
import { SqlInputError } from './sql-statements.js';
import { TargetError } from './sql-target.js';

// Runs of SQL in a project: a stored .sql file or SQL typed in the console, against one of the project's
// connections, each kept in the query history (successful or not). A text that does not parse, a connection
// that cannot be reached and the instance's own database are 400/403 answers; statements that fail inside a
// run are part of its 200 result.

const HISTORY_LIMIT = 100;

interface RunRequest {
  sql: string;
  connection: ResolvedConnection;
  settings: RunSettings;
  fileId: number | null;
}

async function run(db: Db, actor: Actor & { projectId: string }, request: RunRequest, deps: SqlDeps) {
  const started = performance.now();
  const record = (fields: { successful: boolean; rowsAffected: number; errorMessage: string | null }) =>
    insertHistory(db.kysely, {
      project_id: actor.projectId,
      user_id: actor.accountId,
      connection_id: request.connection.id,
      file_id: request.fileId,
      query: request.sql.slice(0, SQL_LIMITS.historyQueryMax),
      execution_time: Math.round((performance.now() - started) * 100) / 100,
      rows_affected: fields.rowsAffected,
      successful: fields.successful ? 1 : 0,
      error_message: fields.errorMessage,
      dry_run: request.settings.dryRun ? 1 : 0,
      executed_at: new Date().toISOString(),
    });
  let result: SqlExecutionResult;
  try {
    const guard = { ownIdentity: await deps.ownIdentity(), mayRead: actor.admin === true };
    result = await runSql(request.connection.endpoint, request.sql, request.settings, guard);
  } catch (error) {
    const refusal = refusalOf(error);
    if (!refusal) throw error;
    await record({ successful: false, rowsAffected: 0, errorMessage: refusal.message });
    throw refusal;
  }
  const failed = result.results.find((r) => !r.success);
  await record({
    successful: result.summary.failedStatements === 0 && result.results.length === result.summary.totalStatements,
    rowsAffected: result.results.reduce((sum, r) => sum + (r.success ? r.rowCount : 0), 0),
    errorMessage: failed?.error ?? null,
  });
  return result;
}

// What a run can be refused for, as the answer to give.
function refusalOf(error: unknown): ApiError | null {
  if (error instanceof SqlInputError) {
    return badRequest(error.code, error.message, {
      details: error.line === null ? null : { line: error.line, column: error.column },
    });
  }
  if (error instanceof TargetError) return badRequest('connection_failed', error.message);
  if (error instanceof OwnDatabaseRefused) return forbidden(error.message, 'own_database_refused');
  return null;
}

/** executeSqlFile runs a project's SQL file on the given connection, or on its first active one. */
export async function executeSqlFile(
  db: Db,
  actor: Actor,
  projectId: string,
  input: unknown,
  deps: SqlDeps,
): Promise<SqlExecutionResult> {
  const member = await requireSqlAccess(db, actor, projectId);
  const { fileId, connectionId, options } = parseInput(executeSqlFileSchema, input);
  const { text } = await readSqlFile(db, projectId, fileId, deps);
  const row =
    connectionId === undefined
      ? await findFirstActiveConnection(db.kysely, projectId)
      : await findConnectionOf(db.kysely, projectId, connectionId);
  if (!row && connectionId === undefined) {
    throw badRequest(
      'connection_required',
      'This project has no active database connection to run the file on: add a database connection (or pass connectionId)',
    );
  }
  const connection = await resolveConnection(projectId, row, deps);
  return run(db, member, { sql: text, connection, settings: options, fileId }, deps);
}

/** executeDirectSql runs SQL typed in the console on one of the project's connections. */
export async function executeDirectSql(
  db: Db,
  actor: Actor,
  projectId: string,
  input: unknown,
  deps: SqlDeps,
): Promise<SqlExecutionResult> {
  const member = await requireSqlAccess(db, actor, projectId);
  const { sql, connectionId, options } = parseInput(executeDirectSqlSchema, input);
  const connection = await resolveConnection(
    projectId,
    await findConnectionOf(db.kysely, projectId, connectionId),
    deps,
  );
  return run(db, member, { sql, connection, settings: options, fileId: null }, deps);
}

function toHistoryEntry(row: HistoryRow): QueryHistoryEntry {
  return {
    id: Number(row.id),
    projectId: row.project_id,
    userId: row.user_id,
    query: row.query,
    executionTime: Number(row.execution_time),
    rowsAffected: Number(row.rows_affected),
    successful: row.successful === 1,
    errorMessage: row.error_message,
    executedAt: row.executed_at,
    connectionId: row.connection_id === null ? null : Number(row.connection_id),
    fileId: row.file_id === null ? null : Number(row.file_id),
    dryRun: row.dry_run === 1,
  };
}

/** listQueryHistory lists a project's latest runs, newest first. */
export async function listQueryHistory(db: Db, actor: Actor, projectId: string): Promise<QueryHistoryEntry[]> {
  await requireSqlAccess(db, actor, projectId);
  return (await listHistoryOf(db.kysely, projectId, HISTORY_LIMIT)).map(toHistoryEntry);
}
