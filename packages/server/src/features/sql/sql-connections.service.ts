import {
  type ConnectionTables,
  type ConnectionTest,
  createConnectionSchema,
  DATABASE_ENGINES,
  DATABASE_PROVIDERS,
  type DatabaseConnection,
  updateConnectionSchema,
} from '@basalt/shared';
import { z } from 'zod';
import type { Db } from '../../db/database.js';
import { badRequest, notFound } from '../../http/errors.js';
import { parseInput } from '../../http/validation.js';
import type { Actor } from '../../lib/actor/actor.js';
import { requireConnectionRoom } from '../billing/usage.service.js';
import { type ConnectionSpec, endpointOf, maskedDetailsOf, maskedStringOf } from './connection-endpoint.js';
import { ConnectionSecretError, openConnectionSecret, sealConnectionSecret } from './connection-secrets.js';
import { requireSqlAccess } from './sql-access.js';
import {
  type ConnectionRow,
  deleteConnectionOf,
  findConnectionOf,
  insertConnection,
  listConnectionsOf,
  updateConnectionOf,
} from './sql-connections.store.js';
import type { SqlDeps } from './sql-deps.js';
import { openTarget } from './sql-run.js';
import type { TargetEndpoint } from './sql-target.js';

// A project's database connections: registered with a URL or details, their secret parts sealed at rest and
// never answered (masked), tested on demand (which sets lastConnected).

const TEST_TIMEOUT_MS = 10_000;
const TABLES_LIMIT = 5000;

const providerSchema = z.enum(DATABASE_PROVIDERS);
const engineSchema = z.enum(DATABASE_ENGINES);

const connectionNotFound = () => notFound('Database connection not found', 'connection_not_found');

type Engine = 'POSTGRESQL' | 'MYSQL';
const engineOf = (row: ConnectionRow): Engine => (row.engine === 'MYSQL' ? 'MYSQL' : 'POSTGRESQL');

function toConnection(row: ConnectionRow): DatabaseConnection {
  return {
    id: Number(row.id),
    projectId: row.project_id,
    userId: row.user_id,
    name: row.name,
    provider: providerSchema.parse(row.provider),
    engine: engineSchema.parse(row.engine),
    connectionString: row.connection_string,
    connectionDetails: row.connection_details ? JSON.parse(row.connection_details) : null,
    isActive: row.is_active === 1,
    lastConnected: row.last_connected,
    createdAt: row.created_at,
  };
}

// The stored forms of a connection's spec: sealed in full, and masked for listings.
function storedFormsOf(deps: SqlDeps, projectId: string, engine: Engine, spec: ConnectionSpec) {
  const endpoint = endpointOf(engine, spec);
  return {
    connection_string: spec.connectionString ? maskedStringOf(spec.connectionString) : null,
    connection_details: spec.connectionString ? null : JSON.stringify(maskedDetailsOf(endpoint)),
    secret_sealed: sealConnectionSecret(deps.keyring, JSON.stringify(spec), projectId),
  };
}

/** specOf opens a stored connection's secret. */
function specOf(deps: SqlDeps, row: ConnectionRow): ConnectionSpec {
  try {
    return JSON.parse(openConnectionSecret(deps.keyring, row.secret_sealed, row.project_id)) as ConnectionSpec;
  } catch (error) {
    if (error instanceof ConnectionSecretError) {
      throw badRequest(
        'connection_secret_unreadable',
        `The connection's credentials cannot be read with this instance's master key (${error.message}); enter them again`,
      );
    }
    throw error;
  }
}

/** listConnections lists a project's connections, masked. */
export async function listConnections(db: Db, actor: Actor, projectId: string): Promise<DatabaseConnection[]> {
  await requireSqlAccess(db, actor, projectId);
  return (await listConnectionsOf(db.kysely, projectId)).map(toConnection);
}

/** createConnection registers a connection in a project, within the plan's cap of the account registering it. */
export async function createConnection(
  db: Db,
  actor: Actor,
  projectId: string,
  input: unknown,
  deps: SqlDeps,
): Promise<DatabaseConnection> {
  await requireSqlAccess(db, actor, projectId);
  const parsed = parseInput(createConnectionSchema, input);
  const engine: Engine = parsed.engine === 'MYSQL' ? 'MYSQL' : 'POSTGRESQL';
  const spec: ConnectionSpec = parsed.connectionString
    ? { connectionString: parsed.connectionString.trim() }
    : { connectionDetails: parsed.connectionDetails };
  const stored = storedFormsOf(deps, projectId, engine, spec);
  const plans = deps.connectionPlans;
  return db.transaction(async (scope) => {
    if (plans) await requireConnectionRoom(scope, plans, actor.accountId);
    const now = new Date().toISOString();
    const row = await insertConnection(scope.kysely, {
      project_id: projectId,
      user_id: actor.accountId,
      name: parsed.name.trim(),
      provider: parsed.provider,
      engine,
      ...stored,
      is_active: parsed.isActive === false ? 0 : 1,
      created_at: now,
      updated_at: now,
    });
    return toConnection(row);
  });
}

/** updateConnection changes a connection; a new string or details replace the sealed secret. */
export async function updateConnection(
  db: Db,
  actor: Actor,
  projectId: string,
  id: number,
  input: unknown,
  deps: SqlDeps,
): Promise<DatabaseConnection> {
  await requireSqlAccess(db, actor, projectId);
  const changes = parseInput(updateConnectionSchema, input);
  return db.transaction(async ({ kysely }) => {
    const row = await findConnectionOf(kysely, projectId, id);
    if (!row) throw connectionNotFound();
    const engine: Engine = changes.engine === 'MYSQL' ? 'MYSQL' : changes.engine ? 'POSTGRESQL' : engineOf(row);
    const newSpec: ConnectionSpec | null = changes.connectionString
      ? { connectionString: changes.connectionString.trim() }
      : changes.connectionDetails
        ? { connectionDetails: changes.connectionDetails }
        : null;
    // Changing the engine alone re-checks the kept secret against it (a postgres:// URL is no MySQL connection).
    const spec = newSpec ?? (changes.engine ? specOf(deps, row) : null);
    const updated = await updateConnectionOf(kysely, projectId, id, {
      ...(changes.name !== undefined ? { name: changes.name.trim() } : {}),
      ...(changes.provider ? { provider: changes.provider } : {}),
      engine,
      ...(spec ? storedFormsOf(deps, projectId, engine, spec) : {}),
      ...(changes.isActive !== undefined ? { is_active: changes.isActive ? 1 : 0 } : {}),
      updated_at: new Date().toISOString(),
    });
    if (!updated) throw connectionNotFound();
    return toConnection(updated);
  });
}

/** deleteConnection removes a connection (its history rows keep their connectionId). */
export async function deleteConnection(db: Db, actor: Actor, projectId: string, id: number): Promise<void> {
  await requireSqlAccess(db, actor, projectId);
  if (!(await deleteConnectionOf(db.kysely, projectId, id))) throw connectionNotFound();
}

/** ResolvedConnection is a connection ready to run on. */
export interface ResolvedConnection {
  id: number;
  name: string;
  endpoint: TargetEndpoint;
}

/** resolveConnection reads a project's connection and where it points, or throws 404 / 400 (inactive). */
export async function resolveConnection(
  projectId: string,
  row: ConnectionRow | undefined,
  deps: SqlDeps,
): Promise<ResolvedConnection> {
  if (!row || row.project_id !== projectId) throw connectionNotFound();
  if (row.is_active !== 1) {
    throw badRequest('connection_inactive', `The database connection "${row.name}" is not active`);
  }
  return { id: Number(row.id), name: row.name, endpoint: endpointOf(engineOf(row), specOf(deps, row)) };
}

/** testConnection connects to a connection's database and, when it answers, sets lastConnected. */
export async function testConnection(
  db: Db,
  actor: Actor,
  projectId: string,
  id: number,
  deps: SqlDeps,
): Promise<ConnectionTest> {
  await requireSqlAccess(db, actor, projectId);
  const row = await findConnectionOf(db.kysely, projectId, id);
  if (!row) throw connectionNotFound();
  const endpoint = endpointOf(engineOf(row), specOf(deps, row));
  const started = performance.now();
  try {
    const session = await openTarget(endpoint, TEST_TIMEOUT_MS);
    let version: string | null = null;
    try {
      const outcome = await session.run(
        {
          text: 'SELECT version() AS version',
          offset: 0,
          returnsRows: false,
          transactionControl: false,
          explainable: false,
          definesTable: null,
        },
        1,
      );
      version = String(outcome.rows[0]?.version ?? '') || null;
    } finally {
      await session.close();
    }
    const latencyMs = Math.round(performance.now() - started);
    const lastConnected = new Date().toISOString();
    await updateConnectionOf(db.kysely, projectId, id, { last_connected: lastConnected });
    return {
      success: true,
      message: `Connected to ${endpoint.host}:${endpoint.port}`,
      latencyMs,
      serverVersion: version,
      lastConnected,
    };
  } catch (error) {
    return {
      success: false,
      message: error instanceof Error ? error.message : String(error),
      latencyMs: null,
      serverVersion: null,
      lastConnected: row.last_connected,
    };
  }
}

const TABLES_SQL = {
  POSTGRESQL: `SELECT table_name AS t, column_name AS c FROM information_schema.columns
    WHERE table_schema NOT IN ('pg_catalog', 'information_schema') AND table_schema = ANY (current_schemas(false))
    ORDER BY table_name, ordinal_position LIMIT ${TABLES_LIMIT}`,
  MYSQL: `SELECT table_name AS t, column_name AS c FROM information_schema.columns
    WHERE table_schema = DATABASE() ORDER BY table_name, ordinal_position LIMIT ${TABLES_LIMIT}`,
};

/** connectionTables lists a connection's tables and columns, for the editor's completion. */
export async function connectionTables(
  db: Db,
  actor: Actor,
  projectId: string,
  id: number,
  deps: SqlDeps,
): Promise<ConnectionTables> {
  await requireSqlAccess(db, actor, projectId);
  const { endpoint } = await resolveConnection(projectId, await findConnectionOf(db.kysely, projectId, id), deps);
  let session: Awaited<ReturnType<typeof openTarget>>;
  try {
    session = await openTarget(endpoint, TEST_TIMEOUT_MS);
  } catch (error) {
    throw badRequest('connection_failed', error instanceof Error ? error.message : String(error));
  }
  try {
    const outcome = await session.run(
      {
        text: TABLES_SQL[endpoint.engine],
        offset: 0,
        returnsRows: true,
        transactionControl: false,
        explainable: false,
        definesTable: null,
      },
      TABLES_LIMIT,
    );
    const tables = new Map<string, string[]>();
    for (const row of outcome.rows) {
      const name = String(row.t ?? row.T ?? row.TABLE_NAME ?? '');
      const column = String(row.c ?? row.C ?? row.COLUMN_NAME ?? '');
      tables.set(name, [...(tables.get(name) ?? []), column]);
    }
    return { tables: [...tables].map(([name, columns]) => ({ name, columns })) };
  } finally {
    await session.close();
  }
}
