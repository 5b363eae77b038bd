import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { type CompiledQuery, type Kysely, type SqliteDatabase, SqliteDialect, sql } from 'kysely';
import { quoteIdentifier } from '../identifiers.js';
import { likeMatches } from '../like-pattern.js';
import { compileLinearRegex, InvalidPatternError, linearRegexRefusal } from '../regex-pattern.js';
import type { SystemDatabase } from '../schema.js';
import type { DatabaseErrorInfo, SqlDialect, UserTableDialect } from './dialect.js';
import { checkpointInBackground } from './sqlite-checkpoints.js';
import { groupCommit } from './sqlite-group-commit.js';

/** SQLITE_FILE_NAME is the database file inside the data directory. */
export const SQLITE_FILE_NAME = 'basalt.db';

/** openSqliteFile opens the data directory's database with Basalt's durability settings. */
export function openSqliteFile(dataDir: string): Database.Database {
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
export function withStatementCache(file: Database.Database, beforeClose: () => void = () => {}): SqliteDatabase {
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

/** sqliteDialect runs Basalt on an embedded SQLite file. */
export const sqliteDialect: SqlDialect = {
  name: 'sqlite',
  createKyselyDialect({ dataDir }) {
    const file = openSqliteFile(dataDir);
    const database = withStatementCache(file, checkpointInBackground(file));
    const dialect = new SqliteDialect({ database });
    files.set(dialect, { file, database });
    return dialect;
  },
  writeTransactions(kysely, connection) {
    return groupCommit(kysely, fileOf(connection).file);
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
  autoIncrementId: (column) => column.primaryKey().autoIncrement(),
  autoIncrementType: 'integer',
  async serverVersion(db: Kysely<SystemDatabase>) {
    const { rows } = await sql<{ v: string }>`select sqlite_version() as v`.execute(db);
    return `SQLite ${rows[0]?.v ?? 'unknown'}`;
  },
  userTables: sqliteUserTables(),
};

// PostgreSQL operators SQLite lacks (protocol §3.9), as SQL functions over JSON text. A function returns
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
    definitionCacheTtlMs: Number.POSITIVE_INFINITY,
    numberedParameters: false,
    likeSql: (out, column, pattern, ci) =>
      out
        .raw(`basalt_like(${column}, `)
        .value(pattern)
        .raw(`, ${ci ? 1 : 0})`),
    regexSql: (out, column, pattern, ci) =>
      out
        .raw(`basalt_regexp(${column}, `)
        .value(pattern)
        .raw(`, ${ci ? 1 : 0})`),
    regexRefusal: linearRegexRefusal,
    jsonEqualsSql: (out, column, jsonText) => out.raw(`basalt_json_equal(${column}, `).value(jsonText).raw(')'),
    isDistinctSql(out, column, value, json) {
      if (json) out.raw(`basalt_json_distinct(${column}, `).value(value).raw(') = 1');
      else out.raw(`${column} IS NOT `).value(value);
    },
    containmentSql(out, column, op, jsonText) {
      if (op === 'cs') out.raw(`basalt_json_contains(${column}, `).value(jsonText).raw(')');
      else if (op === 'cd') out.raw('basalt_json_contains(').value(jsonText).raw(`, ${column})`);
      else out.raw(`basalt_json_overlaps(${column}, `).value(jsonText).raw(')');
    },
    castSql: (value, sqlType) => sql`CAST(${value} AS ${sql.raw(sqlType)})`,
    // SQLite cannot change a column's NOT NULL: the table is rebuilt under its own name (sqlite.org/lang_altertable.html §7).
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
    // AUTOINCREMENT keeps its counter past explicit ids by itself.
    syncIdSequence: async () => {},
    // Kysely runs every SQLite transaction on the one connection, one at a time: it is already exclusive.
    lockTable: async () => {},
    describeError: describeSqliteError,
    async tablesSizeBytes(db, tables) {
      if (tables.length === 0) return 0;
      const { rows } = await sql<{ n: number | null }>`SELECT sum(pgsize) AS n FROM dbstat WHERE name IN
        (SELECT name FROM sqlite_schema WHERE tbl_name IN (${sql.join(tables)}))`.execute(db);
      return Number(rows[0]?.n ?? 0);
    },
  };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isContainer = (v: unknown) => typeof v === 'object' && v !== null;

/** jsonEqual compares two JSON values as jsonb `=` does: object key order does not matter. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]));
  if (isObject(a)) {
    if (!isObject(b)) return false;
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => k in b && jsonEqual(a[k], b[k]));
  }
  return a === b;
}

/**
 * jsonContains is jsonb `a @> b`: an object contains the keys of b with contained values; an array contains
 * each element of b (scalars by equality, containers by containment); a top-level array contains a scalar
 * it holds; scalars contain equal scalars.
 */
export function jsonContains(a: unknown, b: unknown, topLevel = true): boolean {
  if (Array.isArray(a)) {
    if (Array.isArray(b)) {
      return b.every((e) =>
        isContainer(e)
          ? a.some((x) => isContainer(x) && Array.isArray(x) === Array.isArray(e) && jsonContains(x, e, false))
          : a.some((x) => !isContainer(x) && x === e),
      );
    }
    return topLevel && !isContainer(b) && a.some((x) => !isContainer(x) && x === b);
  }
  if (isObject(a)) return isObject(b) && Object.keys(b).every((k) => k in a && jsonContains(a[k], b[k], false));
  return !isContainer(b) && a === b;
}

/** jsonOverlaps tells whether two JSON arrays share an element (PostgreSQL's `&&` for arrays). */
export function jsonOverlaps(a: unknown, b: unknown): boolean {
  return Array.isArray(a) && Array.isArray(b) && a.some((x) => b.some((y) => jsonEqual(x, y)));
}
