import type { IntegrityCheck } from '@basalt/shared';
import type {
  ColumnDefinitionBuilder,
  CompiledQuery,
  Dialect,
  Expression,
  Kysely,
  RawBuilder,
  SqlBool,
  Transaction,
} from 'kysely';
import type { BusTransport } from '../bus/event-bus.js';
import type { GroupCounts, RunRows } from '../group-counts.js';
import type { JsonPath } from '../jsonb.js';
import type { RegexRefusal } from '../regex-pattern.js';
import type { SystemDatabase } from '../schema.js';
import type { SqlExpression, SqlOperand, SqlText } from '../sql-text.js';
import type { SearchOperator } from '../text-search/ts-query.js';
import type { BackupDialect } from './backup-dialect.js';

/**
 * WriteTransaction runs a record write in a transaction: it commits when fn resolves and rolls back when it
 * throws, and resolves only once the write is committed. An engine may commit several writes at once: then fn
 * also gets the group's kept counts (db/group-counts.ts), else null.
 */
export type WriteTransaction = <T>(
  fn: (trx: Transaction<SystemDatabase>, counts: GroupCounts | null) => Promise<T>,
) => Promise<T>;

/** ReadRows runs one read-only statement outside any transaction and returns its rows. */
export type ReadRows = <R>(query: CompiledQuery<R>) => Promise<R[]>;

export type { RunRows } from '../group-counts.js';

/** DialectName names the two engines Basalt runs on. */
export type DialectName = 'sqlite' | 'postgres';

/** SqlDialect is what differs between SQLite and PostgreSQL; db/dialect/* implement it alike. */
export interface SqlDialect {
  name: DialectName;
  /** createKyselyDialect opens the connection (pool) for a config; onIdleError hears a dropped idle connection. */
  createKyselyDialect(options: {
    databaseUrl: string | null;
    dataDir: string;
    onIdleError?: (error: Error) => void;
    /** statementTimeoutMs overrides how long one statement may run (PostgreSQL; tests shorten it). */
    statementTimeoutMs?: number;
    /** searchPath sets the schemas names are looked up in (PostgreSQL; a restore builds in a schema of its own). */
    searchPath?: string[] | null;
    /** poolSize is how many connections the pool keeps (PostgreSQL). */
    poolSize?: number;
    /** synchronousCommit false: commits do not wait for the disk (PostgreSQL; DATABASE_SYNCHRONOUS_COMMIT=off). */
    synchronousCommit?: boolean;
    /** transactionPooler: DATABASE_URL is a transaction pooler (PostgreSQL; nothing prepared, no startup settings). */
    transactionPooler?: boolean;
  }): Dialect;
  /**
   * sessionDefaults makes the settings a transaction pooler cannot pass at connection start the role's defaults in
   * this database, over a direct connection (PostgreSQL: TimeZone UTC and the statement timeout); null elsewhere.
   */
  sessionDefaults:
    | ((directUrl: string, options: { statementTimeoutMs: number; synchronousCommit: boolean }) => Promise<void>)
    | null;
  /**
   * writeTransactions makes the runner of record writes (SQLite: group commit; PostgreSQL: one transaction
   * each) for a Kysely instance made over `connection`, what createKyselyDialect returned.
   */
  writeTransactions(kysely: Kysely<SystemDatabase>, connection: Dialect): WriteTransaction;
  /** reads makes the runner of the record APIs' reads (SQLite: straight to the connection when it is free). */
  reads(kysely: Kysely<SystemDatabase>, connection: Dialect): ReadRows;
  /**
   * backgroundReads makes the runner of reads that scan much (an account's storage): SQLite runs them on a worker
   * thread's connection, so that the event loop does not stop for them; PostgreSQL on the pool, like any read.
   */
  backgroundReads(kysely: Kysely<SystemDatabase>, connection: Dialect): ReadRows;
  /**
   * transactionRows makes the runner of the statements of the open transaction `trx` (SQLite: straight to the
   * connection, which the transaction holds).
   */
  transactionRows(trx: Transaction<SystemDatabase>, connection: Dialect): RunRows;
  /**
   * combined joins statements whose results nobody reads into one, run in their order's stead (PostgreSQL: each a
   * WITH clause of one statement, one round trip instead of one each), and then `last`, if given, whose rows the
   * joined statement answers; null for statements it cannot join. Null where statements are not worth joining
   * (SQLite: no round trips to save).
   */
  combined: ((queries: readonly CompiledQuery[], last?: CompiledQuery) => CompiledQuery | null) | null;
  /**
   * combinedWrite joins a one-row insert (`RETURNING *`), the statements deferred after it and `last` into one
   * statement that commits on its own and answers the inserted row with last's row as JSON in WRITTEN_LAST;
   * `idMark` stands for the inserted row's id in the deferred statements' values (CombinedWrite). Null where it
   * cannot join them, or where the engine has no round trips to save (SQLite).
   */
  combinedWrite: CombinedWrite | null;
  /** autoIncrementId shapes an integer primary key that the database numbers. */
  autoIncrementId(column: ColumnDefinitionBuilder): ColumnDefinitionBuilder;
  /** autoIncrementType is the column type of such a key. */
  autoIncrementType: 'integer' | 'bigserial';
  /** serverVersion reads the engine's version string. */
  serverVersion(db: Kysely<SystemDatabase>): Promise<string>;
  /** userTables is the engine-specific SQL of user tables (db/user-tables.ts holds the rest). */
  userTables: UserTableDialect;
  /** health is the engine-specific SQL of the database health check (features/health). */
  health: HealthDialect;
  /** logSearch is the engine's index for the search of the system log (features/logs). */
  logSearch: LogSearchDialect;
  /** backup is the engine's part of backups and restores (features/backups, db/backup). */
  backup: BackupDialect;
  /**
   * busTransport carries the event bus to the other server processes on the same database (PostgreSQL:
   * LISTEN/NOTIFY); null where there are none (SQLite: one process per file).
   */
  busTransport(options: { databaseUrl: string | null; onError?: (error: unknown) => void }): BusTransport | null;
  /**
   * commitWithoutWaitingForDisk lets the open transaction commit without waiting for its WAL to reach the disk
   * (PostgreSQL: SET LOCAL synchronous_commit = off; a crash of the database server may lose the last fraction of
   * a second of such commits, never their consistency). For state that clients re-send anyway (the Schema
   * Editor's live layout); nothing on SQLite, whose commits do not wait for the disk (synchronous=NORMAL).
   */
  commitWithoutWaitingForDisk(db: Kysely<SystemDatabase>): Promise<void>;
}

/**
 * CombinedWrite joins a write into one statement (SqlDialect.combinedWrite). In the deferred statements' values,
 * a number equal to `idMark` stands for the inserted row's id, and a text starting `{"id":<idMark>,` (the row's
 * history entry, built before PostgreSQL numbers the row) gets the id in its place.
 */
export type CombinedWrite = (
  insert: CompiledQuery,
  deferred: readonly CompiledQuery[],
  last: CompiledQuery,
  idMark: number,
) => CompiledQuery | null;

/** WRITTEN_LAST is the column in which a combined write answers its last statement's row (as JSON). */
export const WRITTEN_LAST = 'basalt:last';

/** SqlFragment is a piece of SQL with bound values, built with Kysely's `sql` tag. */
export type SqlFragment = RawBuilder<unknown>;

/** StoredValue is a value as it is bound for the engine (booleans are 0/1 on SQLite). */
export type StoredValue = string | number | boolean | null;

/**
 * DatabaseErrorInfo is an engine error read into what Basalt can tell a user (db/user-tables.ts translates it
 * once into an ApiError naming the user's table and column). `table` is the SQL name (`t_<id>`).
 */
export type DatabaseErrorInfo =
  | { kind: 'unique'; table: string | null; column: string | null; constraint: string | null; detail: string | null }
  | { kind: 'notNull'; table: string | null; column: string | null }
  | { kind: 'invalidValue'; message: string }
  | { kind: 'undefinedColumn' | 'undefinedTable'; message: string }
  | { kind: 'invalidRegex'; message: string; hint?: string }
  | { kind: 'timeout' }
  | { kind: 'duplicateInStatement'; message: string };

/**
 * UserTableDialect is the engine-specific SQL of user tables (DESIGN.md "Data"): the system columns' DDL, the
 * filter operators that each engine spells differently, the schema
 * steps SQLite can only do by rebuilding the table, and the engine's error shapes. The dialect-neutral rest
 * is in db/user-tables.ts; every identifier reaching these members was quoted by db/identifiers.ts.
 */
export interface UserTableDialect {
  /** idColumnSql declares the integer primary key the database numbers (explicit ids on insert allowed). */
  idColumnSql: string;
  /** timestampColumnSql declares created_at / updated_at (NOT NULL, defaulting to now). */
  timestampColumnSql: string;
  /** rowLockSql ends a SELECT whose rows the transaction is about to change (`FOR UPDATE`, or nothing). */
  rowLockSql: string;
  /**
   * keyShareLockSql ends a SELECT of rows that must not be deleted before the transaction ends (`FOR KEY SHARE`, the
   * lock a foreign key check takes: other writers of the rows go on, a delete waits), or nothing.
   */
  keyShareLockSql: string;
  /**
   * definitionCacheTtlMs is how long a process may trust a cached table definition without hearing of a change.
   * Changes reach every process through the bus at once; this only bounds the harm of an event that was lost
   * (SQLite has one process, which hears everything: never).
   */
  definitionCacheTtlMs: number;
  /** numberedParameters: the engine's placeholders are `$1, $2…` (PostgreSQL) rather than `?` (SQLite). */
  numberedParameters: boolean;
  /**
   * plannedRows is the planner's estimate of the rows a SELECT returns, without running it (PostgreSQL's
   * EXPLAIN); null where the engine keeps no such estimate (SQLite: features/records/record-counts.ts samples).
   */
  plannedRows(read: ReadRows, select: CompiledQuery): Promise<number | null>;
  /**
   * rowCountShards is how many rows hold each table's kept count (db/row-counts.ts): one where writes never run
   * at the same time (SQLite), several where concurrent writes would otherwise wait for one row's lock.
   */
  rowCountShards: number;
  // The filter operators each engine spells differently. Each appends to a statement being written; `column`
  // is a name already quoted by db/identifiers.ts, or a JSON path into one (jsonPathSql), and every value is
  // bound.
  /** likeSql is a LIKE (case-sensitive) or ILIKE match with `%`/`_` wildcards and `\` escapes. */
  likeSql(out: SqlText, column: SqlOperand, pattern: string, caseInsensitive: boolean): void;
  /** regexSql is a POSIX-style regular expression match (`~` / `~*`). */
  regexSql(out: SqlText, column: SqlOperand, pattern: string, caseInsensitive: boolean): void;
  /**
   * regexRefusal says why this engine will not run a match/imatch pattern (too long; on SQLite, not linear-time
   * or not RE2 syntax), or returns null. Checked before any query, so an empty table refuses it too.
   */
  regexRefusal(pattern: string, caseInsensitive: boolean): RegexRefusal | null;
  /** jsonEqualsSql compares a JSON operand with JSON text the way jsonb `=` does. */
  jsonEqualsSql(out: SqlText, column: SqlOperand, jsonText: string): void;
  /** jsonCompareSql orders a JSON operand against JSON text the way jsonb `<`, `>`… do. */
  jsonCompareSql(out: SqlText, column: SqlOperand, op: '<' | '<=' | '>' | '>=', jsonText: string): void;
  /** isDistinctSql is `IS DISTINCT FROM` a stored value (json: JSON text compared as jsonb). */
  isDistinctSql(out: SqlText, column: SqlOperand, value: StoredValue, json: boolean): void;
  /**
   * textSearchSql is `to_tsvector('english', column) @@ <op>(config, query)`: PostgREST's fts, plfts, phfts and
   * wfts (fts: to_tsquery, then plainto_, phraseto_ and websearch_to_tsquery). `index` names the column's search
   * index (db/text-search/search-index.ts) where a search may ask it first: outside any NOT, where a row it
   * leaves out being false rather than NULL selects the same rows. PostgreSQL's planner finds its index alone.
   */
  textSearchSql(
    out: SqlText,
    column: SqlOperand,
    op: SearchOperator,
    config: string,
    query: string,
    index?: string | null,
  ): void;
  /** containmentSql is jsonb `@>` (cs), `<@` (cd), or array overlap (ov) with JSON text. */
  containmentSql(out: SqlText, column: SqlOperand, op: 'cs' | 'cd' | 'ov', jsonText: string): void;
  /**
   * jsonPathSql is PostgreSQL's `"meta" -> 'a' ->> 'b'` on a json/array column (quoted): the value at the path,
   * JSON after a final `->` (JSON null included) and text after `->>`; SQL NULL where the path leads nowhere.
   * Keys are bound values, an integer key is an array index. The path was checked (db/jsonb.ts limits).
   */
  jsonPathSql(column: string, path: JsonPath): SqlExpression;
  /** jsonSortSql is what ORDER BY sorts a JSON operand by so that it follows jsonb's order. */
  jsonSortSql(column: SqlOperand): SqlOperand;
  /**
   * idOfNumberSql is a number operand (a reference column, quoted) as what an id column is compared with so that
   * the id's index serves the comparison, NULL where the number is no id: PostgreSQL compares a bigint with a
   * double as doubles, past the index.
   */
  idOfNumberSql(number: string): string;
  /**
   * relatedJson names the functions that carry related rows as JSON inside a list's own statement
   * (features/records/record-related-sql.ts): `array` makes a row's values a JSON array, `aggregate` gathers rows'
   * arrays (with an ORDER BY) into one, and `nested` keeps a subquery's JSON as JSON inside another (SQLite loses
   * a value's JSON subtype at a subquery's edge; '' where nothing is needed).
   */
  relatedJson: { array: string; aggregate: string; nested: string };
  /** castSql converts a bound value to a column's SQL type (for batched updates). */
  castSql(value: StoredValue, sqlType: string): SqlFragment;
  /**
   * changeRequired sets or drops NOT NULL on a column of the table `table` (quoted); SQLite rebuilds the
   * table from `rebuild`, the DDL of the table as it must become, and its column list.
   */
  changeRequired(db: Kysely<SystemDatabase>, change: RequiredChange): Promise<void>;
  /**
   * syncIdSequence moves the id counter past the largest id, after rows were inserted with explicit ids, and
   * past `atLeast` when given (a table brought back from history never hands out an id it used before).
   */
  syncIdSequence(db: Kysely<SystemDatabase>, table: string, atLeast?: number): Promise<void>;
  /** lockTable locks a user table against every other use until the transaction ends. */
  lockTable(db: Kysely<SystemDatabase>, table: string): Promise<void>;
  /** describeError reads an engine error, or returns null for one that is not about the data. */
  describeError(error: unknown): DatabaseErrorInfo | null;
  /** tablesSizeBytes is the storage the given user tables (SQL names) take, indexes included. */
  tablesSizeBytes(read: ReadRows, tables: string[]): Promise<number>;
}

/** RequiredChange is a NOT NULL change of one column, with what a rebuild of the table needs. */
export interface RequiredChange {
  /** The table's SQL name, unquoted (`t_<id>`). */
  table: string;
  column: string;
  required: boolean;
  /** createTable writes CREATE TABLE for the table as it must become, under another name. */
  createTable(name: string): SqlFragment;
  /** columns are the SQL names of every column the rebuilt table keeps (system columns included). */
  columns: string[];
  /** indexes are the CREATE INDEX statements the table has after the change. */
  indexes: SqlFragment[];
}

/** ConnectionStats is what an engine tells of its connections and storage (docs/operations.md "Health"). */
export interface ConnectionStats {
  active: number;
  idle: number;
  max: number;
  /** Connections open out of max, 0 to 1. */
  utilization: number;
  /** Engine facts beyond the metrics: storage sizes, the connection pool. */
  details: Record<string, unknown>;
}

/**
 * HealthDialect measures the database for features/health. `connection` is what createKyselyDialect returned
 * for the Kysely instance `db`.
 */
export interface HealthDialect {
  /** connectionStats counts the connections (SQLite: this process's one; PostgreSQL: the server's) and sizes. */
  connectionStats(db: Kysely<SystemDatabase>, connection: Dialect): Promise<ConnectionStats>;
  /**
   * checkIntegrity runs the engine's own consistency checks (SQLite: quick_check and foreign_key_check, on a
   * worker thread with its own connection; PostgreSQL: catalogue probes) and says what each found.
   */
  checkIntegrity(db: Kysely<SystemDatabase>, connection: Dialect): Promise<IntegrityCheck[]>;
  /** tableNames lists the tables of Basalt's database (its schema, on PostgreSQL). */
  tableNames(db: Kysely<SystemDatabase>): Promise<string[]>;
}

/** LoggedIds are the first and last id of entries just inserted into system_logs, one after another. */
export interface LoggedIds {
  first: number;
  last: number;
}

/**
 * LogSearchDialect is the index behind the system log's search (features/logs, docs/operations.md "What a query
 * costs"): a case-insensitive substring of message, source, path or context. SQLite keeps an FTS5 table of
 * trigrams that the log writer fills in its batch transaction (a trigger empties it); PostgreSQL keeps a
 * pg_trgm GIN index that its planner uses for the LIKE conditions unaided.
 */
export interface LogSearchDialect {
  /**
   * createLogSearchIndex builds the index over the entries already stored (migration 0006). On PostgreSQL
   * without the pg_trgm extension it builds nothing: the search then reads the entries, as before.
   */
  createLogSearchIndex(db: Kysely<SystemDatabase>): Promise<void>;
  /**
   * indexLogRows adds entries just inserted in the transaction `trx` to the index; `ids` are theirs when the
   * engine reports them (SQLite), null when it does not (PostgreSQL, whose index follows the table itself).
   */
  indexLogRows(trx: Kysely<SystemDatabase>, ids: LoggedIds | null): Promise<void>;
  /**
   * logSearchCandidates is a condition on system_logs that keeps the entries the index says may contain `term`
   * (at least every entry that does: the caller still tests the text), when they are at most `max`. Null when
   * the index cannot narrow the search that far: a term too short for trigrams, too many candidates, or an
   * engine whose planner uses its index for the text tests themselves.
   */
  logSearchCandidates(db: Kysely<SystemDatabase>, term: string, max: number): Promise<SqlFragment | null>;
  /**
   * countLogSearchMatches counts the entries among the index's candidates for `term` that satisfy `where` (a
   * condition on system_logs, its columns named with the table), up to `limit`: it reads the candidates in the
   * index's order and stops at the limit, so a common term costs no more than a rare one. Null when the engine
   * has no such read (PostgreSQL, whose planner chooses its own) or the term no trigram.
   */
  countLogSearchMatches(
    db: Kysely<SystemDatabase>,
    term: string,
    where: Expression<SqlBool>,
    limit: number,
  ): Promise<number | null>;
}
