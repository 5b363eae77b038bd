import { type Kysely, sql } from 'kysely';
import type { SystemDatabase } from '../schema.js';
import type { LogSearchDialect } from './dialect.js';

// The system log's search on PostgreSQL (features/logs): a GIN index of pg_trgm trigrams over the very
// expressions the search's LIKE conditions test, lower(message), lower(source), lower(path) and lower(context).
// The planner picks it for a rare term (a bitmap of the candidates, rechecked against the text) and a read in
// order for a common one; results are the LIKE conditions' either way. The index follows the table itself:
// nothing to fill, nothing to empty.
//
// pg_trgm ships with PostgreSQL's contrib package and is a trusted extension (since PostgreSQL 13): the owner of
// the database may create it. When it cannot be created (no contrib package, no right to), or its operator class
// is out of reach (installed in a schema off the search_path), the migration builds no index and the search reads
// the entries as before; docs/operations.md says how to add the index later.

// The errors that mean "no pg_trgm here": undefined_file (no control file), insufficient_privilege,
// undefined_object (no gin_trgm_ops), feature_not_supported.
const UNAVAILABLE = new Set(['58P01', '42501', '42704', '0A000']);

/** postgresLogSearch is the system log's search index on PostgreSQL. */
export const postgresLogSearch: LogSearchDialect = {
  async createLogSearchIndex(db) {
    const build = async (trx: Kysely<SystemDatabase>) => {
      // A failed statement aborts the migration's transaction unless it ran in a savepoint.
      await sql`SAVEPOINT basalt_log_search`.execute(trx);
      try {
        await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`.execute(trx);
        await sql`CREATE INDEX system_logs_search_idx ON system_logs USING gin (lower(message) gin_trgm_ops,
          lower(source) gin_trgm_ops, lower(path) gin_trgm_ops, lower(context) gin_trgm_ops)`.execute(trx);
      } catch (error) {
        if (!UNAVAILABLE.has(String((error as { code?: unknown }).code))) throw error;
        await sql`ROLLBACK TO SAVEPOINT basalt_log_search`.execute(trx);
      }
      await sql`RELEASE SAVEPOINT basalt_log_search`.execute(trx);
    };
    await (db.isTransaction ? build(db) : db.transaction().execute(build));
  },
  indexLogRows: async () => {},
  logSearchCandidates: async () => null,
  countLogSearchMatches: async () => null,
};
