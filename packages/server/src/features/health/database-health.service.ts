import type { DatabaseCheck, DatabaseHealth, DatabaseMetrics, IntegrityCheck } from '@basalt/shared';
import type { Db } from '../../db/database.js';
import { userTableName } from '../../db/identifiers.js';
import { redactText } from '../../lib/redaction/redaction.js';
import { listAllTableDefinitions, pingDatabase, readOneSetting } from './health.store.js';
import { createProbeTimings, PROBE_WINDOW } from './probe-timings.js';

// Database health (what each number means is in docs/operations.md). A check times three probe queries, asks the engine for its connections and sizes
// (db/dialect/*: health), and sums up the window of recent probes. A full diagnostic also runs the engine's
// integrity checks and Basalt's own: every table definition has its SQL table.

// Connections in use from which the message warns, on an engine with more than one.
const BUSY_UTILIZATION = 0.9;
// At most this many problems are listed per check.
const MAX_PROBLEMS = 50;

const NO_METRICS: DatabaseMetrics = {
  connectionUtilization: 0,
  activeConnections: 0,
  maxConnections: 0,
  idleConnections: 0,
  avgQueryTime: 0,
  slowQueries: 0,
};

/** DatabaseHealthService answers health checks for one database. */
export interface DatabaseHealthService {
  /** health measures the database now. */
  health(): Promise<DatabaseHealth>;
  /** check measures it and, with fullDiagnostic, checks its integrity (one diagnostic at a time: callers share it). */
  check(options: { fullDiagnostic: boolean }): Promise<DatabaseCheck>;
  /** sample runs the probes once, for the window of recent timings (a background job, every PROBE_WINDOW.sampleEveryMs). */
  sample(): Promise<void>;
}

const messageOf = (error: unknown) => redactText(error instanceof Error ? error.message : String(error), 300);

const failed = (name: string, error: unknown): IntegrityCheck => ({
  name,
  ok: false,
  message: `The check could not run: ${messageOf(error)}`,
  problems: [messageOf(error)],
});

function healthMessage(metrics: DatabaseMetrics): string {
  if (metrics.maxConnections > 1 && metrics.connectionUtilization >= BUSY_UTILIZATION) {
    return `Connected, but ${Math.round(metrics.connectionUtilization * 100)}% of the connections are in use`;
  }
  if (metrics.avgQueryTime > PROBE_WINDOW.slowMs) {
    return `Connected, but the database answers slowly (${metrics.avgQueryTime} ms on average)`;
  }
  if (metrics.slowQueries > 0) {
    return `Connected; ${metrics.slowQueries} probe queries took over ${PROBE_WINDOW.slowMs} ms in the last 15 minutes`;
  }
  return 'Database connection is healthy';
}

/** createDatabaseHealth makes the health checks of a database. */
export function createDatabaseHealth(db: Db): DatabaseHealthService {
  const timings = createProbeTimings();
  let diagnostic: Promise<NonNullable<DatabaseCheck['integrity']>> | null = null;

  async function timed<T>(probe: () => Promise<T>): Promise<T> {
    const started = performance.now();
    const result = await probe();
    timings.record(performance.now() - started);
    return result;
  }

  // The probes: a round trip, an indexed read of a system table, the version (also a round trip).
  async function probe(): Promise<string> {
    await timed(() => pingDatabase(db.kysely));
    await timed(() => readOneSetting(db.kysely));
    return timed(() => db.dialect.serverVersion(db.kysely));
  }

  async function health(): Promise<DatabaseHealth> {
    const checkedAt = new Date().toISOString();
    try {
      const version = await probe();
      const stats = await db.connectionStats();
      const window = timings.summary();
      const metrics: DatabaseMetrics = {
        connectionUtilization: Math.round(stats.utilization * 1000) / 1000,
        activeConnections: stats.active,
        maxConnections: stats.max,
        idleConnections: stats.idle,
        avgQueryTime: window.avgMs,
        slowQueries: window.slow,
      };
      return {
        connected: true,
        message: healthMessage(metrics),
        version,
        metrics,
        details: { ...stats.details, probeQueries: window.count, slowQueryMs: PROBE_WINDOW.slowMs },
        checkedAt,
      };
    } catch (error) {
      return {
        connected: false,
        message: `Could not reach the database: ${messageOf(error)}`,
        version: null,
        metrics: NO_METRICS,
        details: { engine: db.dialect.name },
        checkedAt,
      };
    }
  }

  async function tableDefinitionsCheck(): Promise<IntegrityCheck> {
    const [definitions, tables] = await Promise.all([
      listAllTableDefinitions(db.kysely),
      db.dialect.health.tableNames(db.kysely),
    ]);
    const existing = new Set(tables);
    const missing = definitions
      .filter((definition) => !existing.has(userTableName(definition.id)))
      .map((d) => `table "${d.name}" (id ${d.id}, account ${d.account_id}) has no SQL table ${userTableName(d.id)}`);
    return {
      name: 'table_definitions',
      ok: missing.length === 0,
      message:
        missing.length === 0
          ? `Every table definition (${definitions.length}) has its SQL table`
          : `${missing.length} table definition(s) have no SQL table`,
      problems: missing.slice(0, MAX_PROBLEMS),
    };
  }

  async function runDiagnostic(): Promise<NonNullable<DatabaseCheck['integrity']>> {
    const started = performance.now();
    const engine = await db.checkIntegrity().catch((error: unknown) => [failed('engine', error)]);
    const definitions = await tableDefinitionsCheck().catch((error: unknown) => failed('table_definitions', error));
    const checks = [...engine, definitions].map((c) => ({ ...c, problems: c.problems.slice(0, MAX_PROBLEMS) }));
    return {
      ok: checks.every((c) => c.ok),
      durationMs: Math.round((performance.now() - started) * 10) / 10,
      checks,
    };
  }

  return {
    health,
    async check({ fullDiagnostic }) {
      if (!fullDiagnostic) return { ...(await health()), integrity: null };
      // Joined before anything is awaited, so checks asked for together share one run whatever their timing.
      diagnostic ??= runDiagnostic().finally(() => {
        diagnostic = null;
      });
      const [measured, integrity] = await Promise.all([health(), diagnostic]);
      if (!measured.connected) {
        const check = failed('connection', 'The database did not answer; nothing was checked');
        return { ...measured, integrity: { ok: false, durationMs: 0, checks: [check] } };
      }
      return { ...measured, integrity };
    },
    async sample() {
      await probe();
    },
  };
}
