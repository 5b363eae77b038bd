import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import {
  type CompiledQuery,
  type Kysely,
  type QueryCompiler,
  type SqliteDatabase,
  SqliteDialect,
  SqliteQueryCompiler,
  sql,
  type Transaction,
} from 'kysely';
import { quoteIdentifier } from '../identifiers.js';
import { type JsonPathStep, jsonbSortKey, jsonContains, jsonEqual, jsonOverlaps, jsonPathValue } from '../jsonb.js';
import { likeMatches } from '../like-pattern.js';
import { compileLinearRegex, InvalidPatternError, linearRegexRefusal } from '../regex-pattern.js';
import type { SystemDatabase } from '../schema.js';
import { PLAIN_PARAMETER, textQuery, wrapOperand } from '../sql-text.js';
import { searchPrefilter } from '../text-search/search-prefilter.js';
import { textSearchMatches } from '../text-search/ts-match.js';
import type { SearchOperator } from '../text-search/ts-query.js';
import type { DatabaseErrorInfo, RunRows, SqlDialect, UserTableDialect } from './dialect.js';
import { SQLITE_FILE_NAME, sqliteBackup } from './sqlite-backup.js';
import { checkpointInBackground, readInBackground } from './sqlite-checkpoints.js';
import { groupCommit } from './sqlite-group-commit.js';
import { sqliteHealth } from './sqlite-health.js';
import { sqliteLogSearch } from './sqlite-log-search.js';

export { SQLITE_FILE_NAME } from './sqlite-backup.js';

/** openSqliteFile opens the data directory's database with Basalt's durability settings. */
function openSqliteFile(dataDir: string): Database.Database {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = new Database(path.join(dataDir, SQLITE_FILE_NAME));
  // WAL + synchronous=NORMAL: a committed write survives a process crash (DESIGN.md principle 2).
  file.pragma('journal_mode = WAL');
  file.pragma('synchronous = NORMAL');
  file.pragma('foreign_keys = ON');
  file.pragma('busy_timeout = 5000');
  // After a checkpoint the WAL is reused from its start; beyond this size it is also truncated.
  file.pragma('journal_size_limit = 67108864');
  registerEmulations(file);
  return file;
}

// Kysely prepares every query anew; better-sqlite3 statements can be reused, which saves the SQL compile on
// the record APIs' hot path. Up to STATEMENT_CACHE_SIZE distinct SQL texts are kept, the oldest dropped
// first; a hit is one Map lookup (a statement survives schema changes: SQLite re-prepares it, or fails as a
// new one would).
const STATEMENT_CACHE_SIZE = 1000;

/**
 * withStatementCache wraps a database so that preparing the same SQL again returns the same statement;
 * beforeClose runs first when it closes.
 */
function withStatementCache(file: Database.Database, beforeClose: () => void = () => {}): SqliteDatabase {
  const statements = new Map<string, Database.Statement>();
  return {
    close: () => {
      beforeClose();
      file.close();
    },
    prepare(text: string) {
      let statement = statements.get(text);
      if (!statement) {
        statement = file.prepare(text);
        if (statements.size >= STATEMENT_CACHE_SIZE) statements.delete(statements.keys().next().value ?? '');
        statements.set(text, statement);
      }
      return statement;
    },
  };
}

// The database file behind each Kysely dialect made here, and its statement cache (group commit runs its
// savepoints on it directly, and free reads run on it without Kysely).
const files = new WeakMap<object, { file: Database.Database; database: SqliteDatabase }>();

function fileOf(connection: object) {
  const found = files.get(connection);
  if (!found) throw new Error('sqliteDialect needs the Kysely dialect its createKyselyDialect made');
  return found;
}

// A write's statements are small: Kysely's layers of promises around each (its connection lock, its result
// transform) cost about as much as the engine's work. The transaction holds the one connection until it ends, so a
// statement of its own can go straight to it; once it has ended, statements go through Kysely again.
function transactionRows(trx: Transaction<SystemDatabase>, connection: object): RunRows {
  const { file, database } = fileOf(connection);
  return <R>(query: CompiledQuery<R>) => {
    if (!file.inTransaction) return trx.executeQuery(query).then((result) => result.rows as R[]);
    try {
      const statement = database.prepare(query.sql);
      if (statement.reader) return Promise.resolve(statement.all(query.parameters) as R[]);
      statement.run(query.parameters);
      return Promise.resolve([]);
    } catch (error) {
      return Promise.reject(error);
    }
  };
}

// Kysely's statements take the same placeholder as Basalt's own (db/sql-text.ts): a statement reused from the
// cache is not compiled again for each new value it is run with.
class PlainParameterCompiler extends SqliteQueryCompiler {
  protected override getCurrentParameterPlaceholder(): string {
    return PLAIN_PARAMETER;
  }
}

class BasaltSqliteDialect extends SqliteDialect {
  override createQueryCompiler(): QueryCompiler {
    return new PlainParameterCompiler();
  }
}

/** sqliteDialect runs Basalt on an embedded SQLite file. */
export const sqliteDialect: SqlDialect = {
  name: 'sqlite',
  createKyselyDialect({ dataDir }) {
    const file = openSqliteFile(dataDir);
    const database = withStatementCache(file, checkpointInBackground(file));
    const dialect = new BasaltSqliteDialect({ database });
    files.set(dialect, { file, database });
    return dialect;
  },
  writeTransactions(kysely, connection) {
    return groupCommit(kysely, fileOf(connection).file, (trx) => transactionRows(trx, connection));
  },
  // A read runs synchronously on the connection, without Kysely's layers, whenever no transaction is open on
  // it: better-sqlite3 runs a statement to its end, so nothing can interleave, and it sees only committed
  // data. While a transaction is open (a schema change, a group of writes), the read waits for it through
  // Kysely, as every query did before.
  reads(kysely, connection) {
    const { file, database } = fileOf(connection);
    return <R>(query: CompiledQuery<R>) => {
      if (file.inTransaction) return kysely.executeQuery(query).then((result) => result.rows as R[]);
      try {
        return Promise.resolve(database.prepare(query.sql).all(query.parameters) as R[]);
      } catch (error) {
        return Promise.reject(error);
      }
    };
  },
  backgroundReads(kysely, connection) {
    const { file } = fileOf(connection);
    const direct = sqliteDialect.reads(kysely, connection);
    return (query) => readInBackground(file, query) ?? direct(query);
  },
  transactionRows,
  combined: null,
  combinedWrite: null,
  autoIncrementId: (column) => column.primaryKey().autoIncrement(),
  autoIncrementType: 'integer',
  async serverVersion(db: Kysely<SystemDatabase>) {
    const { rows } = await sql<{ v: string }>`select sqlite_version() as v`.execute(db);
    return `SQLite ${rows[0]?.v ?? 'unknown'}`;
  },
  userTables: sqliteUserTables(),
  health: sqliteHealth((connection) => fileOf(connection).file),
  logSearch: sqliteLogSearch,
  backup: sqliteBackup,
  // One server process per file: the bus stays in process.
  sessionDefaults: null,
  busTransport: () => null,
  commitWithoutWaitingForDisk: async () => {},
};

// PostgreSQL operators SQLite lacks, as SQL functions over JSON text. A function returns
// NULL for a NULL argument, so `not.` and NULL rows behave as they do on PostgreSQL.
function registerEmulations(file: Database.Database): void {
  const bit = (b: boolean) => (b ? 1 : 0);
  const jsonOf = (text: unknown): unknown => (typeof text === 'string' ? JSON.parse(text) : text);
  const options = { deterministic: true };
  // Both run per row inside a synchronous statement: each is linear in the value, whatever the pattern
  // (db/like-pattern.ts, db/regex-pattern.ts), so no pattern can hold the process.
  file.function('basalt_like', options, (value: unknown, pattern: unknown, ci: unknown) =>
    value === null || pattern === null ? null : bit(likeMatches(String(value), String(pattern), ci === 1)),
  );
  file.function('basalt_regexp', options, (value: unknown, pattern: unknown, ci: unknown) =>
    value === null || pattern === null ? null : bit(compileLinearRegex(String(pattern), ci === 1).test(String(value))),
  );
  file.function('basalt_json_equal', options, (a: unknown, b: unknown) =>
    a === null || b === null ? null : bit(jsonEqual(jsonOf(a), jsonOf(b))),
  );
  file.function('basalt_json_distinct', options, (a: unknown, b: unknown) =>
    a === null || b === null ? bit(a !== b) : bit(!jsonEqual(jsonOf(a), jsonOf(b))),
  );
  file.function('basalt_json_contains', options, (a: unknown, b: unknown) =>
    a === null || b === null ? null : bit(jsonContains(jsonOf(a), jsonOf(b))),
  );
  file.function('basalt_json_overlaps', options, (a: unknown, b: unknown) =>
    a === null || b === null ? null : bit(jsonOverlaps(jsonOf(a), jsonOf(b))),
  );
  // `->`/`->>` as PostgreSQL reads them (SQLite's own treat a key starting with `$` as a path, and print
  // JSON without jsonb's spacing): the JSON text after a final `->`, the text after `->>`, else NULL.
  file.function('basalt_json_path', { ...options, varargs: true }, (json: unknown, asText: unknown, ...keys) => {
    if (typeof json !== 'string') return null;
    const path = keys.map(
      (key, i): JsonPathStep => ({
        arrow: asText === 1 && i === keys.length - 1 ? '->>' : '->',
        key: typeof key === 'number' ? key : String(key),
      }),
    );
    const found = jsonPathValue(JSON.parse(json), path);
    if (found === undefined) return null;
    return asText === 1 ? (found as string) : JSON.stringify(found);
  });
  // Full-text search as PostgreSQL's english documents and queries read (db/text-search/): the query is checked
  // before the statement runs, its tree built once per statement.
  file.function('basalt_fts', options, (value: unknown, op: unknown, config: unknown, query: unknown) =>
    value === null ? null : bit(textSearchMatches(String(value), op as SearchOperator, String(config), String(query))),
  );
  file.function('basalt_json_sort_key', options, (json: unknown) =>
    typeof json === 'string' ? jsonbSortKey(JSON.parse(json)) : null,
  );
}

const CONSTRAINT_TARGET = /constraint failed: ([\w$]+)\.([\w$]+)/;

function describeSqliteError(error: unknown): DatabaseErrorInfo | null {
  if (error instanceof InvalidPatternError) return { kind: 'invalidRegex', ...error.refusal };
  if (!(error instanceof Error)) return null;
  const code = (error as Error & { code?: unknown }).code;
  const target = CONSTRAINT_TARGET.exec(error.message);
  if (code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY') {
    return { kind: 'unique', table: target?.[1] ?? null, column: target?.[2] ?? null, constraint: null, detail: null };
  }
  if (code === 'SQLITE_CONSTRAINT_NOTNULL')
    return { kind: 'notNull', table: target?.[1] ?? null, column: target?.[2] ?? null };
  if (error.message.startsWith('no such column')) return { kind: 'undefinedColumn', message: error.message };
  if (error.message.startsWith('no such table')) return { kind: 'undefinedTable', message: error.message };
  return null;
}

function sqliteUserTables(): UserTableDialect {
  return {
    idColumnSql: '"id" INTEGER PRIMARY KEY AUTOINCREMENT',
    // ISO 8601 with milliseconds, the form the date column type stores.
    timestampColumnSql: "TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))",
    rowLockSql: '',
    keyShareLockSql: '',
    definitionCacheTtlMs: Number.POSITIVE_INFINITY,
    numberedParameters: false,
    rowCountShards: 1,
    plannedRows: async () => null,
    likeSql: (out, column, pattern, ci) =>
      out
        .raw('basalt_like(')
        .operand(column)
        .raw(', ')
        .value(pattern)
        .raw(`, ${ci ? 1 : 0})`),
    regexSql: (out, column, pattern, ci) =>
      out
        .raw('basalt_regexp(')
        .operand(column)
        .raw(', ')
        .value(pattern)
        .raw(`, ${ci ? 1 : 0})`),
    regexRefusal: linearRegexRefusal,
    textSearchSql(out, column, op, config, query, index) {
      // The FTS5 table's candidates first (their rowids drive the read), then the exact check of each.
      const match = index ? searchPrefilter(op, config, query) : null;
      if (index && match !== null) {
        const fts = quoteIdentifier(index);
        out.raw(`"id" IN (SELECT rowid FROM ${fts} WHERE ${fts} MATCH `).value(match).raw(') AND ');
      }
      out
        .raw('basalt_fts(')
        .operand(column)
        .raw(', ')
        .value(op)
        .raw(', ')
        .value(config)
        .raw(', ')
        .value(query)
        .raw(') = 1');
    },
    jsonEqualsSql: (out, column, jsonText) =>
      out.raw('basalt_json_equal(').operand(column).raw(', ').value(jsonText).raw(')'),
    jsonCompareSql: (out, column, op, jsonText) =>
      out.raw('basalt_json_sort_key(').operand(column).raw(`) ${op} basalt_json_sort_key(`).value(jsonText).raw(')'),
    isDistinctSql(out, column, value, json) {
      if (json) out.raw('basalt_json_distinct(').operand(column).raw(', ').value(value).raw(') = 1');
      else out.operand(column).raw(' IS NOT ').value(value);
    },
    containmentSql(out, column, op, jsonText) {
      if (op === 'cs') out.raw('basalt_json_contains(').operand(column).raw(', ').value(jsonText).raw(')');
      else if (op === 'cd') out.raw('basalt_json_contains(').value(jsonText).raw(', ').operand(column).raw(')');
      else out.raw('basalt_json_overlaps(').operand(column).raw(', ').value(jsonText).raw(')');
    },
    // `basalt_json_path("meta", 1, ?, ?)`: 1 when the last step is `->>`; a path has at least one step.
    jsonPathSql: (column, path) => ({
      texts: [
        `basalt_json_path(${column}, ${path.at(-1)?.arrow === '->>' ? 1 : 0}, `,
        ...path.slice(1).map(() => ', '),
        ')',
      ],
      values: path.map((s) => s.key),
    }),
    jsonSortSql: (column) => wrapOperand('basalt_json_sort_key(', column, ')'),
    // An INTEGER PRIMARY KEY compared with a REAL is a rowid lookup already.
    idOfNumberSql: (number) => number,
    // REAL values are written with 17 significant digits: they read back as the same double.
    relatedJson: { array: 'json_array', aggregate: 'json_group_array', nested: 'json' },
    castSql: (value, sqlType) => sql`CAST(${value} AS ${sql.raw(sqlType)})`,
    // SQLite cannot change a column's NOT NULL: the table is rebuilt under its own name.
    async changeRequired(db, change) {
      const table = quoteIdentifier(change.table);
      const temporary = `${change.table}__rebuild`;
      const { rows } = await sql<{ seq: number }>`SELECT seq FROM sqlite_sequence WHERE name = ${change.table}`.execute(
        db,
      );
      const columns = change.columns.map(quoteIdentifier).join(', ');
      await change.createTable(temporary).execute(db);
      await sql
        .raw(`INSERT INTO ${quoteIdentifier(temporary)} (${columns}) SELECT ${columns} FROM ${table}`)
        .execute(db);
      await sql.raw(`DROP TABLE ${table}`).execute(db);
      await sql.raw(`ALTER TABLE ${quoteIdentifier(temporary)} RENAME TO ${table}`).execute(db);
      for (const index of change.indexes) await index.execute(db);
      const seq = rows[0]?.seq ?? 0;
      await sql`UPDATE sqlite_sequence SET seq = max(seq, ${seq}) WHERE name = ${change.table}`.execute(db);
      await sql`INSERT INTO sqlite_sequence (name, seq) SELECT ${change.table}, ${seq}
        WHERE ${seq} > 0 AND NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = ${change.table})`.execute(db);
    },
    // AUTOINCREMENT keeps its counter past explicit ids by itself; only a floor needs writing.
    async syncIdSequence(db, table, atLeast = 0) {
      if (atLeast <= 0) return;
      await sql`UPDATE sqlite_sequence SET seq = max(seq, ${atLeast}) WHERE name = ${table}`.execute(db);
      await sql`INSERT INTO sqlite_sequence (name, seq) SELECT ${table}, ${atLeast}
        WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = ${table})`.execute(db);
    },
    // Kysely runs every SQLite transaction on the one connection, one at a time: it is already exclusive.
    lockTable: async () => {},
    describeError: describeSqliteError,
    async tablesSizeBytes(read, tables) {
      if (tables.length === 0) return 0;
      const [row] = await read(textQuery<{ n: number | null }>(TABLES_SIZE, [JSON.stringify(tables)]));
      return Number(row?.n ?? 0);
    },
  };
}

// The pages of the named user tables and their indexes (the names as one JSON array: one text for any number).
const TABLES_SIZE = `SELECT sum(pgsize) AS n FROM dbstat WHERE name IN
  (SELECT name FROM sqlite_schema WHERE tbl_name IN (SELECT value FROM json_each(?)))`;
