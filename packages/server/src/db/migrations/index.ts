import type { Migration } from 'kysely/migration';
import type { SqlDialect } from '../dialect/dialect.js';
import { accountsMigration } from './0001_accounts.js';
import { tablesMigration } from './0002_tables.js';
import { apiKeysMigration } from './0003_api_keys.js';
import { checkpointsMigration } from './0004_checkpoints.js';
import { logsMigration } from './0005_logs.js';
import { logsSearchMigration } from './0006_logs_search.js';

/** systemMigrations lists every numbered system migration, oldest first; names never change. */
export function systemMigrations(dialect: SqlDialect): Record<string, Migration> {
  return {
    '0001_accounts': accountsMigration(dialect),
    '0002_tables': tablesMigration(dialect),
    '0003_api_keys': apiKeysMigration(dialect),
    '0004_checkpoints': checkpointsMigration(dialect),
    '0005_logs': logsMigration(dialect),
    '0006_logs_search': logsSearchMigration(dialect),
  };
}
