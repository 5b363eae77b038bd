import type { IntegrityCheck } from '@basalt/shared';
import { type CompiledQuery, Kysely, type Transaction } from 'kysely';
import { type Migration, Migrator } from 'kysely/migration';
import type { Config } from '../config.js';
import type { DatabaseSettings } from '../config-database.js';
import { type BusEvents, type BusTopic, createEventBus, type EventBus } from './bus/event-bus.js';
import { createRedisTransport } from './bus/redis-transport.js';
import type { DatabaseBackup } from './dialect/backup-dialect.js';
import { type ConnectionStats, type ReadRows, type RunRows, type SqlDialect, WRITTEN_LAST } from './dialect/dialect.js';
import { postgresDialect } from './dialect/postgres.js';
import { sqliteDialect } from './dialect/sqlite.js';
import { type GroupCounts, WriteCounts } from './group-counts.js';
import { systemMigrations } from './migrations/index.js';
import type { SystemDatabase } from './schema.js';

/** TransactionOptions tune how a transaction commits. */
export interface TransactionOptions {
  /**
   * group lets the engine commit this transaction together with others that arrived at the same time (SQLite's
   * group commit, db/dialect/sqlite-group-commit.ts); it resolves once committed. Only for short writes that use
   * nothing but the scope they are given: any other database call would wait for the group.
   */
  group?: boolean;
}

/**
 * Db is the open database, or a scope: the same handle bound to one open transaction. Services take a Db and
 * call `db.transaction(scope => …)`: at the root it opens a transaction, in a scope it joins the one open, so
 * one function runs alone or inside a larger change (a revert, a restore) unchanged.
 */
export interface Db {
  /** kysely runs queries: on the connection pool at the root, in the transaction in a scope. */
  kysely: Kysely<SystemDatabase>;
  dialect: SqlDialect;
  /** bus carries events to this process and the other nodes (db/bus); publish through `publish` below. */
  bus: EventBus;
  /** inTransaction tells whether this handle is a scope, bound to an open transaction. */
  readonly inTransaction: boolean;
  /** transaction runs fn in a transaction (or the open one): commits when fn resolves, rolls back when it throws. */
  transaction<T>(fn: (scope: Db) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /** afterCommit runs fn once the open transaction has committed (never if it rolls back); at the root, at once. */
  afterCommit(fn: () => void): void;
  /** publish sends an event on the bus after the open transaction commits (at the root, at once). */
  publish<K extends BusTopic>(topic: K, payload: BusEvents[K]): void;
  /**
   * counts is this write's part of the kept counts of its group of writes (db/group-counts.ts), written once for
   * the whole group before it commits; null where each write writes its own (the root, PostgreSQL, any
   * transaction that is not a group's).
   */
  readonly counts: WriteCounts | null;
  /** readRows runs a record API's read-only statement: outside any transaction at the root (the fastest way). */
  readRows: ReadRows;
  /**
   * readInBackground runs a read-only statement that scans much (an account's storage) without stopping the event
   * loop for it (SQLite: on a worker thread's connection); in a scope, in its transaction.
   */
  readInBackground: ReadRows;
  /**
   * run runs one statement of any kind and returns its rows: in a scope in its transaction, the fastest way the
   * engine has (the hot statements of every record write use it); at the root on its own.
   */
  run: RunRows;
  /**
   * defer runs a statement whose result nobody reads (a write's history and activity entries) before the open
   * transaction commits: on PostgreSQL the statements deferred in a row go as one, just before the next statement
   * that runs through `run` or `readRows`, or before the commit, saving a round trip each. At the root, and on
   * SQLite, it runs at once. Only for rows that nothing reads back through `kysely` in the same transaction.
   */
  defer(query: CompiledQuery): Promise<void>;
  /**
   * runAfterDeferred runs a statement that returns rows (`RETURNING`) as `run` does, after the deferred ones: on
   * PostgreSQL in the same statement, which saves their round trip. It must not read what they write: it runs in
   * their snapshot. A record write's count update is the one.
   */
  runAfterDeferred: RunRows;
  /**
   * writeOnce writes one row with what a write defers after it (`fill` defers into the scope it is given) and
   * `last`, as one statement outside any transaction (PostgreSQL's combinedWrite: it commits whole or not at all,
   * in one round trip instead of four); `idMark` stands for the row's id in the deferred values until PostgreSQL
   * numbers it. It answers the row and last's row, or null when the statements cannot be joined (nothing ran
   * then). Null in a transaction, and where the engine has no round trips to save (SQLite).
   */
  writeOnce: WriteOnce | null;
  /**
   * state returns this process's value for `key` on this database, made by `make` on first use: the per-process
   * caches (table definitions, keys, sessions) live here, shared by the root and every scope.
   */
  state<T>(key: symbol, make: () => T): T;
  /**
   * prepareSessions sets what the engine's sessions need before anything runs (behind a transaction pooler: the
   * role's session defaults, over DATABASE_DIRECT_URL); migrateToLatest calls it first.
   */
  prepareSessions(): Promise<void>;
  /** connectionStats measures the engine's connections and storage (features/health). */
  connectionStats(): Promise<ConnectionStats>;
  /** checkIntegrity runs the engine's consistency checks (features/health). */
  checkIntegrity(): Promise<IntegrityCheck[]>;
  /** backup takes the engine's consistent copies and swaps restored databases in (db/backup, features/backups). */
  backup: DatabaseBackup;
  close(): Promise<void>;
}

/** WriteOnce is Db.writeOnce. */
export type WriteOnce = <R>(
  insert: CompiledQuery<Record<string, unknown>>,
  fill: (scope: Db) => Promise<void>,
  last: CompiledQuery<R>,
  idMark: number,
) => Promise<{ row: Record<string, unknown>; last: R | null } | null>;

/** dialectFor picks SQLite unless DATABASE_URL names a PostgreSQL server. */
function dialectFor(config: Pick<Config, 'databaseUrl'>): SqlDialect {
  return config.databaseUrl ? postgresDialect : sqliteDialect;
}

/** openDatabase connects to the configured engine and its event bus (it does not migrate). */
export function openDatabase(
  config: Pick<Config, 'databaseUrl' | 'dataDir'> & { redisUrl?: string | null; database?: DatabaseSettings },
  options: {
    onIdleError?: (error: Error) => void;
    onBusError?: (error: unknown) => void;
    statementTimeoutMs?: number;
    /** searchPath: the schemas a PostgreSQL database is built in and read from (a restore's staging schema). */
    searchPath?: string[] | null;
    /** ownBus keeps the bus in this process (a restore's staging database has no part in the instance's events). */
    ownBus?: boolean;
  } = {},
): Db {
  const dialect = dialectFor(config);
  const settings = config.database;
  const transactionPooler = settings?.poolMode === 'transaction';
  // The bus's LISTEN session and the backups' own clients need PostgreSQL itself, not a transaction pooler.
  const directUrl = settings?.directUrl ?? config.databaseUrl;
  const connection = dialect.createKyselyDialect({
    ...config,
    poolSize: settings?.poolSize,
    statementTimeoutMs: settings?.statementTimeoutMs,
    synchronousCommit: settings?.synchronousCommit,
    transactionPooler,
    ...options,
  });
  const kysely = new Kysely<SystemDatabase>({ dialect: connection });
  // On PostgreSQL the bus reaches the other server processes on the database (LISTEN/NOTIFY); SQLite has one.
  // REDIS_URL moves it to Redis pub/sub (db/bus/redis-transport.ts).
  const bus = createEventBus({
    transport: options.ownBus
      ? null
      : config.redisUrl
        ? createRedisTransport({ redisUrl: config.redisUrl, onError: options.onBusError })
        : dialect.busTransport({ databaseUrl: directUrl, onError: options.onBusError }),
    onError: options.onBusError,
  });
  const groupWrite = dialect.writeTransactions(kysely, connection);
  const states = new Map<symbol, unknown>();
  const common = {
    dialect,
    bus,
    state<T>(key: symbol, make: () => T): T {
      if (!states.has(key)) states.set(key, make());
      return states.get(key) as T;
    },
    prepareSessions: async () => {
      if (transactionPooler && directUrl && settings && dialect.sessionDefaults) {
        const { statementTimeoutMs, synchronousCommit } = settings;
        await dialect.sessionDefaults(directUrl, { statementTimeoutMs, synchronousCommit });
      }
    },
    connectionStats: () => dialect.health.connectionStats(kysely, connection),
    checkIntegrity: () => dialect.health.checkIntegrity(kysely, connection),
    backup: dialect.backup.bind(kysely, connection, { ...config, databaseUrl: directUrl }),
  };

  const runHooks = (hooks: Array<() => void>) => {
    for (const hook of hooks) {
      try {
        hook();
      } catch (error) {
        // The transaction has committed: a failing follow-up must not turn it into an error for the caller.
        options.onBusError?.(error);
      }
    }
  };

  const root: Db = {
    ...common,
    kysely,
    inTransaction: false,
    counts: null,
    async transaction(fn, transactionOptions = {}) {
      const hooks: Array<() => void> = [];
      const run = async (trx: Transaction<SystemDatabase>, group: GroupCounts | null = null) => {
        const counts = group && new WriteCounts(group);
        const { scope, flush } = scopeOf(trx, hooks, counts);
        const result = await fn(scope);
        await flush();
        counts?.keep();
        return result;
      };
      const result = transactionOptions.group ? await groupWrite(run) : await kysely.transaction().execute(run);
      runHooks(hooks);
      return result;
    },
    afterCommit: (fn) => runHooks([fn]),
    publish: (topic, payload) => bus.publish(topic, payload),
    readRows: dialect.reads(kysely, connection),
    readInBackground: dialect.backgroundReads(kysely, connection),
    run: async (query) => (await kysely.executeQuery(query)).rows,
    defer: async (query) => {
      await kysely.executeQuery(query);
    },
    runAfterDeferred: async (query) => (await kysely.executeQuery(query)).rows,
    writeOnce: null,
    close: async () => {
      await bus.close();
      await kysely.destroy();
    },
  };

  if (dialect.combinedWrite !== null) {
    const { combinedWrite } = dialect;
    // Prepared by name on the pool's connections, like the record reads: the joined text is one per table.
    const runOnPool = dialect.reads(kysely, connection);
    root.writeOnce = async (insert, fill, last, idMark) => {
      const deferred: CompiledQuery[] = [];
      const hooks: Array<() => void> = [];
      const unjoinable = () => Promise.reject(new Error('writeOnce: a write in one statement may only defer'));
      const collector: Db = {
        ...root,
        inTransaction: true,
        transaction: (fn) => fn(collector),
        afterCommit: (fn) => {
          hooks.push(fn);
        },
        publish: (topic, payload) => {
          hooks.push(() => bus.publish(topic, payload));
        },
        readRows: unjoinable,
        readInBackground: unjoinable,
        run: unjoinable,
        runAfterDeferred: unjoinable,
        defer: async (query) => {
          deferred.push(query);
        },
        writeOnce: null,
      };
      await fill(collector);
      const joined = combinedWrite(insert, deferred, last, idMark);
      if (joined === null) return null;
      const [written] = await runOnPool<Record<string, unknown>>(joined);
      if (written === undefined) throw new Error('writeOnce: the insert returned no row');
      runHooks(hooks);
      const { [WRITTEN_LAST]: lastRow, ...row } = written;
      return { row, last: (lastRow ?? null) as never };
    };
  }

  function scopeOf(
    trx: Transaction<SystemDatabase>,
    hooks: Array<() => void>,
    counts: WriteCounts | null,
  ): { scope: Db; flush: () => Promise<void> } {
    const runNow = dialect.transactionRows(trx, connection);
    const { combined } = dialect;
    let deferred: CompiledQuery[] = [];
    const flush = async () => {
      if (deferred.length === 0) return;
      const queries = deferred;
      deferred = [];
      const joined = queries.length === 1 ? queries[0] : combined?.(queries);
      if (joined) await runNow(joined);
      else for (const query of queries) await runNow(query);
    };
    // Nothing deferred (always so on SQLite): the statement goes straight to the transaction.
    const run: RunRows = (query) => (deferred.length === 0 ? runNow(query) : flush().then(() => runNow(query)));
    const scope: Db = {
      ...common,
      kysely: trx,
      inTransaction: true,
      counts,
      transaction: (fn) => fn(scope),
      afterCommit: (fn) => {
        hooks.push(fn);
      },
      publish: (topic, payload) => {
        hooks.push(() => bus.publish(topic, payload));
      },
      // On SQLite a read outside the transaction would wait for the connection the transaction holds.
      readRows: run,
      readInBackground: run,
      run,
      defer: async (query) => {
        if (combined === null) {
          await runNow(query);
          return;
        }
        // One statement may not change a row twice: the same statement again (the same count's upsert) waits
        // for those before it to run.
        if (deferred.some((pending) => pending.sql === query.sql)) await flush();
        deferred.push(query);
      },
      writeOnce: null,
      runAfterDeferred: <R>(query: CompiledQuery<R>) => {
        const joined = deferred.length === 0 ? null : combined?.(deferred, query);
        if (!joined) return run(query);
        deferred = [];
        return runNow(joined as CompiledQuery<R>);
      },
      close: root.close,
    };
    return { scope, flush };
  }

  return root;
}

/** MigratorOptions narrow a migrator for a restore's new database. */
export interface MigratorOptions {
  /** only: just these migrations (a restore first brings a new database to its archive's level). */
  only?: readonly string[];
  /** schema: the PostgreSQL schema of the migrations' own table (a restore builds in a schema of its own). */
  schema?: string;
}

/** systemMigrator is the migrator of Basalt's own tables on a database (tests also step it to a version). */
export function systemMigrator(db: Db, { only, schema }: MigratorOptions = {}): Migrator {
  const pick = (all: Record<string, Migration>) =>
    only ? Object.fromEntries(Object.entries(all).filter(([name]) => only.includes(name))) : all;
  return new Migrator({
    db: db.kysely,
    ...(schema ? { migrationTableSchema: schema } : {}),
    provider: { getMigrations: async () => pick(systemMigrations(db.dialect)) },
    migrationTableName: 'basalt_migrations',
    migrationLockTableName: 'basalt_migrations_lock',
    // Numbers are reserved per piece of work and land out of order (0016 after 0020): each runs once, in any order.
    allowUnorderedMigrations: true,
  });
}

/** migrateToLatest runs every pending system migration; several processes may call it at once. */
export async function migrateToLatest(db: Db, options: MigratorOptions = {}): Promise<string[]> {
  await db.prepareSessions();
  const { error, results } = await systemMigrator(db, options).migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
