import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { SqlDialect } from '../dialect/dialect.js';

/**
 * logsSearchMigration builds the index of the system log's search (features/logs): on SQLite an FTS5 trigram
 * table, filled here from the entries already stored and then by the log writer; on PostgreSQL a pg_trgm GIN
 * index, or nothing where the extension is not available (db/dialect/*-log-search.ts). On a full log (a million
 * entries) it takes a minute or so, once, at the first start of this version.
 */
export function logsSearchMigration(dialect: SqlDialect): Migration {
  return {
    // biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists.
    async up(db: Kysely<any>) {
      await dialect.logSearch.createLogSearchIndex(db);
    },
  };
}
