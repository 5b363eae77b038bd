import type { IntegrityCheck } from '@basalt/shared';
import { Kysely, type Transaction } from 'kysely';
import { Migrator } from 'kysely/migration';
import type { Config } from '../config.js';
import type { ConnectionStats, ReadRows, SqlDialect, WriteTransaction } from './dialect/dialect.js';
import { postgresDialect } from './dialect/postgres.js';
import { sqliteDialect } from './dialect/sqlite.js';
import { systemMigrations } from './migrations/index.js';
import type { SystemDatabase } from './schema.js';

/** Db is the open database: Kysely over the system tables plus the dialect it runs on. */
export interface Db {
  kysely: Kysely<SystemDatabase>;
  dialect: SqlDialect;
  /** transaction runs fn in one transaction; it commits when fn resolves and rolls back when it throws. */
  transaction<T>(fn: (trx: Transaction<SystemDatabase>) => Promise<T>): Promise<T>;
  /**
   * writeTransaction runs one record write like transaction, but the engine may commit it together with
   * writes that arrived at the same time (db/dialect/sqlite-group-commit.ts); it resolves once committed.
   * fn must only use the transaction it is given (no other database call: it would wait for the group).
   */
  writeTransaction: WriteTransaction;
  /** readRows runs a record API's read-only statement, outside any transaction (the engine's fastest way). */
  readRows: ReadRows;
  /** connectionStats measures the engine's connections and storage (features/health). */
  connectionStats(): Promise<ConnectionStats>;
  /** checkIntegrity runs the engine's consistency checks (features/health). */
  checkIntegrity(): Promise<IntegrityCheck[]>;
  close(): Promise<void>;
}

/** dialectFor picks SQLite unless DATABASE_URL names a PostgreSQL server. */
export function dialectFor(config: Pick<Config, 'databaseUrl'>): SqlDialect {
  return config.databaseUrl ? postgresDialect : sqliteDialect;
}

/** openDatabase connects to the configured engine (it does not migrate). */
export function openDatabase(
  config: Pick<Config, 'databaseUrl' | 'dataDir'>,
  options: { onIdleError?: (error: Error) => void; statementTimeoutMs?: number } = {},
): Db {
  const dialect = dialectFor(config);
  const connection = dialect.createKyselyDialect({ ...config, ...options });
  const kysely = new Kysely<SystemDatabase>({ dialect: connection });
  return {
    kysely,
    dialect,
    transaction: (fn) => kysely.transaction().execute(fn),
    writeTransaction: dialect.writeTransactions(kysely, connection),
    readRows: dialect.reads(kysely, connection),
    connectionStats: () => dialect.health.connectionStats(kysely, connection),
    checkIntegrity: () => dialect.health.checkIntegrity(kysely, connection),
    close: () => kysely.destroy(),
  };
}

/** systemMigrator is the migrator of Basalt's own tables on a database (tests also step it to a version). */
export function systemMigrator(db: Db): Migrator {
  return new Migrator({
    db: db.kysely,
    provider: { getMigrations: async () => systemMigrations(db.dialect) },
    migrationTableName: 'basalt_migrations',
    migrationLockTableName: 'basalt_migrations_lock',
  });
}

/** migrateToLatest runs every pending system migration; several processes may call it at once. */
export async function migrateToLatest(db: Db): Promise<string[]> {
  const { error, results } = await systemMigrator(db).migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
