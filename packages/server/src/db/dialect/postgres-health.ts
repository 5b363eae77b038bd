import { type Kysely, sql } from 'kysely';
import type pg from 'pg';
import { quoteIdentifier } from '../identifiers.js';
import type { SystemDatabase } from '../schema.js';
import type { HealthDialect } from './dialect.js';

// Connections are the server's, as pg_stat_activity lists them: client backends of every database count
// against max_connections. The health check's own connection is one of the active ones.
export function postgresHealth(poolOf: (connection: object) => pg.Pool | undefined): HealthDialect {
  const tableNames = async (db: Kysely<SystemDatabase>) => {
    const { rows } = await sql<{ name: string }>`SELECT c.relname AS name FROM pg_class c
      WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'p')`.execute(db);
    return rows.map((row) => row.name);
  };
  return {
    async connectionStats(db, connection) {
      const { rows } = await sql<{
        total: number;
        active: number;
        idle: number;
        in_database: number;
        long_running: number;
        max: number;
        reserved: number;
        size: number;
      }>`SELECT
          count(*) FILTER (WHERE backend_type = 'client backend') AS total,
          count(*) FILTER (WHERE backend_type = 'client backend' AND state = 'active') AS active,
          count(*) FILTER (WHERE backend_type = 'client backend' AND state = 'idle') AS idle,
          count(*) FILTER (WHERE backend_type = 'client backend' AND datname = current_database()) AS in_database,
          count(*) FILTER (WHERE backend_type = 'client backend' AND state = 'active' AND pid <> pg_backend_pid()
            AND now() - query_start > interval '1 second') AS long_running,
          current_setting('max_connections')::int AS max,
          current_setting('superuser_reserved_connections')::int AS reserved,
          pg_database_size(current_database()) AS size
        FROM pg_stat_activity`.execute(db);
      const row = rows[0];
      const max = Number(row?.max ?? 0);
      const total = Number(row?.total ?? 0);
      const pool = poolOf(connection);
      return {
        active: Number(row?.active ?? 0),
        idle: Number(row?.idle ?? 0),
        max,
        utilization: max > 0 ? Math.min(1, total / max) : 0,
        details: {
          engine: 'postgres',
          sizeBytes: Number(row?.size ?? 0),
          serverConnections: total,
          databaseConnections: Number(row?.in_database ?? 0),
          longRunningQueries: Number(row?.long_running ?? 0),
          reservedConnections: Number(row?.reserved ?? 0),
          pool: pool
            ? { size: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: pool.options.max }
            : null,
        },
      };
    },
    async checkIntegrity(db) {
      const indexes = await sql<{ index: string; table: string; valid: boolean }>`
        SELECT i.indexrelid::regclass::text AS index, i.indrelid::regclass::text AS "table", i.indisvalid AS valid
        FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid
        WHERE c.relnamespace = current_schema()::regnamespace AND (NOT i.indisvalid OR NOT i.indisready)`.execute(db);
      const constraints = await sql<{ name: string; table: string }>`
        SELECT conname AS name, conrelid::regclass::text AS "table" FROM pg_constraint
        WHERE connamespace = current_schema()::regnamespace AND NOT convalidated`.execute(db);
      // Reading one row of each table proves its files are there and readable.
      const unreadable: string[] = [];
      for (const table of await tableNames(db)) {
        try {
          await sql`SELECT 1 FROM ${sql.raw(quoteIdentifier(table))} LIMIT 1`.execute(db);
        } catch (error) {
          unreadable.push(`${table}: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
      const badIndexes = indexes.rows.map(
        (r) => `index ${r.index} on ${r.table} is ${r.valid ? 'not ready' : 'invalid'} (a failed build): REINDEX it`,
      );
      const badConstraints = constraints.rows.map((r) => `constraint ${r.name} on ${r.table} is not validated`);
      return [
        {
          name: 'indexes',
          ok: badIndexes.length === 0,
          message:
            badIndexes.length === 0
              ? 'pg_index: every index is valid and ready'
              : `pg_index lists ${badIndexes.length} unusable index(es)`,
          problems: badIndexes,
        },
        {
          name: 'constraints',
          ok: badConstraints.length === 0,
          message:
            badConstraints.length === 0
              ? 'pg_constraint: every constraint is validated'
              : `pg_constraint lists ${badConstraints.length} constraint(s) not validated`,
          problems: badConstraints,
        },
        {
          name: 'tables_readable',
          ok: unreadable.length === 0,
          message:
            unreadable.length === 0
              ? 'Every table of the schema can be read'
              : `${unreadable.length} table(s) of the schema cannot be read`,
          problems: unreadable,
        },
      ];
    },
    tableNames,
  };
}
