import { CompiledQuery, type Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import Cursor from 'pg-cursor';
import { createPostgresTransport } from '../bus/postgres-notify.js';
import { quoteIdentifier } from '../identifiers.js';
import { tooLong } from '../regex-pattern.js';
import type { SystemDatabase } from '../schema.js';
import { type PreparedQuery, textQuery } from '../sql-text.js';
import type { DatabaseErrorInfo, SqlDialect, UserTableDialect } from './dialect.js';
import { postgresBackup } from './postgres-backup.js';
import { combinedStatements, combinedWrite } from './postgres-combined.js';
import { postgresHealth } from './postgres-health.js';
import { postgresLogSearch } from './postgres-log-search.js';
import { NamedStatements } from './postgres-named.js';

// COUNT(*) and bigserial ids are int8; they stay far below 2^53, so read them as numbers.
const INT8_OID = 20;
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID
      ? (v: string) => Number(v)
      : pg.types.getTypeParser(oid, format ?? 'text')) as typeof pg.types.getTypeParser,
};

// pg-cursor parses values with pg's default parsers unless told otherwise: streamed rows read bigints as the
// pool's queries do.
class TypedCursor extends Cursor {
  constructor(text: string, values: unknown[]) {
    super(text, values, { types });
  }
}

/**
 * STATEMENT_TIMEOUT_MS stops any one statement after 30 s. Filters come from clients, and a costly one (a
 * regular expression over a large table, a LIKE over long values) must not hold a connection and a core for
 * ever; the error (57014) reaches the client as a 400 that asks to narrow the filter (user-tables errors).
 */
const STATEMENT_TIMEOUT_MS = 30_000;

// The pool behind each Kysely dialect made here (the health check reads its counters), and whether a transaction
// pooler stands in front of it (then no statement is prepared by name: the next transaction on the pooler's
// connection may be another client's, which never prepared it, or prepared another under the same name).
const pools = new WeakMap<object, pg.Pool>();
const behindTransactionPooler = new WeakSet<object>();
// The texts each pool's clients send by name inside transactions (postgres-named.ts); none behind a pooler.
const namedStatements = new WeakMap<object, NamedStatements>();

/** postgresDialect runs Basalt on a PostgreSQL server (DATABASE_URL). */
export const postgresDialect: SqlDialect = {
  name: 'postgres',
  createKyselyDialect({
    databaseUrl,
    onIdleError,
    statementTimeoutMs = STATEMENT_TIMEOUT_MS,
    searchPath,
    poolSize = 10,
    transactionPooler = false,
    synchronousCommit = true,
  }) {
    if (!databaseUrl) throw new Error('postgresDialect needs DATABASE_URL');
    // statement_timeout is a startup parameter of every pooled connection: no extra round trip per query.
    // Sessions run in UTC whatever the server's default, so that the texts PostgreSQL writes itself (a unique
    // violation's `Key (due)=(2025-01-01 00:00:00+00)`) read as Basalt writes them on SQLite (db/pg-text.ts).
    // A transaction pooler refuses both at connection start: they are the role's defaults then (sessionDefaults).
    const startup = transactionPooler
      ? {}
      : {
          statement_timeout: statementTimeoutMs,
          options: [
            '-c TimeZone=UTC',
            ...(searchPath ? [`-c search_path=${searchPathOption(searchPath)}`] : []),
            ...(synchronousCommit ? [] : ['-c synchronous_commit=off']),
          ].join(' '),
        };
    const pool = new pg.Pool({ connectionString: databaseUrl, max: poolSize, types, ...startup });
    // An idle connection that the server drops (restart, failover) emits 'error'; unheard, it kills the process.
    // The pool replaces the connection on the next checkout, so logging it is enough.
    pool.on('error', (error) => onIdleError?.(error));
    // The cursor lets a backup stream a table's rows instead of reading them all at once.
    const dialect = new PostgresDialect({ pool, cursor: TypedCursor });
    pools.set(dialect, pool);
    if (transactionPooler) behindTransactionPooler.add(dialect);
    else {
      const named = new NamedStatements();
      named.attach(pool);
      namedStatements.set(dialect, named);
    }
    return dialect;
  },
  // Each write has its own connection and transaction; PostgreSQL groups the WAL flushes of concurrent commits.
  writeTransactions: (kysely) => (fn) => kysely.transaction().execute((trx) => fn(trx, null)),
  reads: (kysely, connection) => {
    const pool = behindTransactionPooler.has(connection) ? undefined : pools.get(connection);
    // Names whose prepared statement stopped working on some connection: read unprepared from then on.
    const failed = new Set<string>();
    return async (query) => {
      const name = (query as Partial<PreparedQuery>).preparedName;
      if (pool === undefined || name === undefined || failed.has(name)) return (await kysely.executeQuery(query)).rows;
      try {
        return (await pool.query({ name, text: query.sql, values: [...query.parameters] })).rows;
      } catch (error) {
        // A statement prepared before its table was dropped and made again with other columns refuses to run
        // ("cached plan must not change result type"); the same read unprepared answers as the table is now.
        if ((error as PgError).code !== CACHED_PLAN_CHANGED) throw error;
        failed.add(name);
        return (await kysely.executeQuery(query)).rows;
      }
    };
  },
  backgroundReads: (kysely) => async (query) => (await kysely.executeQuery(query)).rows,
  transactionRows: (trx, connection) => {
    const named = namedStatements.get(connection);
    if (named === undefined) return async (query) => (await trx.executeQuery(query)).rows;
    return async (query) => {
      try {
        return (await trx.executeQuery(named.named(query))).rows;
      } catch (error) {
        named.forget(query, error);
        throw error;
      }
    };
  },
  combined: combinedStatements,
  combinedWrite,
  autoIncrementId: (column) => column.primaryKey(),
  autoIncrementType: 'bigserial',
  async serverVersion(db: Kysely<SystemDatabase>) {
    const { rows } = await sql<{ v: string }>`select version() as v`.execute(db);
    return rows[0]?.v.split(' on ')[0] ?? 'PostgreSQL';
  },
  userTables: postgresUserTables(),
  health: postgresHealth((connection) => pools.get(connection)),
  logSearch: postgresLogSearch,
  backup: postgresBackup,
  async commitWithoutWaitingForDisk(db) {
    await sql`SET LOCAL synchronous_commit = off`.execute(db);
  },
  sessionDefaults: setSessionDefaults,
  busTransport({ databaseUrl, onError }) {
    if (!databaseUrl) throw new Error('postgresDialect needs DATABASE_URL');
    return createPostgresTransport({ databaseUrl, onError });
  },
};

const CACHED_PLAN_CHANGED = '0A000';

// Behind a transaction pooler no setting can be sent at connection start, and a SET would outlive the transaction
// on a connection the next client gets: the role's own defaults in this database carry them instead (a role may
// always set its own). They apply to the connections opened after this, the pooler's included.
async function setSessionDefaults(
  directUrl: string,
  { statementTimeoutMs, synchronousCommit }: { statementTimeoutMs: number; synchronousCommit: boolean },
) {
  const client = new pg.Client({ connectionString: directUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ db: string }>('SELECT current_database() AS db');
    const database = pg.escapeIdentifier(rows[0]?.db ?? '');
    await client.query(`ALTER ROLE CURRENT_USER IN DATABASE ${database} SET TimeZone = 'UTC'`);
    await client.query(
      `ALTER ROLE CURRENT_USER IN DATABASE ${database} SET statement_timeout = ${Math.trunc(statementTimeoutMs)}`,
    );
    await client.query(
      `ALTER ROLE CURRENT_USER IN DATABASE ${database} SET synchronous_commit = ${synchronousCommit ? 'on' : 'off'}`,
    );
  } finally {
    await client.end();
  }
}

// A search_path as a startup option: quoted names, with libpq's backslash before spaces and backslashes.
function searchPathOption(schemas: string[]): string {
  return schemas
    .map(quoteIdentifier)
    .join(',')
    .replace(/[\\ ]/g, (c) => `\\${c}`);
}

const INVALID_VALUE_CODES = new Set(['22P02', '22007', '22008', '22003', '22023', '22P05', '2202E', '22021']);

interface PgError {
  code?: string;
  message: string;
  table?: string;
  column?: string;
  constraint?: string;
  detail?: string;
}

function describePostgresError(error: unknown): DatabaseErrorInfo | null {
  if (!(error instanceof Error) || typeof (error as PgError).code !== 'string') return null;
  const e = error as Error & PgError;
  switch (e.code) {
    case '23505':
      return {
        kind: 'unique',
        table: e.table ?? null,
        column: null,
        constraint: e.constraint ?? null,
        detail: e.detail ?? null,
      };
    case '23502':
      return { kind: 'notNull', table: e.table ?? null, column: e.column ?? null };
    case '42703':
      return { kind: 'undefinedColumn', message: e.message };
    case '42P01':
      return { kind: 'undefinedTable', message: e.message };
    case '2201B':
      return { kind: 'invalidRegex', message: e.message };
    case '57014':
      return { kind: 'timeout' };
    case '21000':
      return { kind: 'duplicateInStatement', message: e.message };
    default:
      return INVALID_VALUE_CODES.has(e.code ?? '') ? { kind: 'invalidValue', message: e.message } : null;
  }
}

// PostgREST's full-text operators and the function each builds its tsquery with.
const TS_QUERY_FUNCTIONS = {
  fts: 'to_tsquery',
  plfts: 'plainto_tsquery',
  phfts: 'phraseto_tsquery',
  wfts: 'websearch_to_tsquery',
} as const;

const keyType = (key: string | number | undefined) => (typeof key === 'number' ? 'integer' : 'text');

function postgresUserTables(): UserTableDialect {
  return {
    // BY DEFAULT (not ALWAYS) so that an insert may carry its own id; syncIdSequence then moves the counter.
    idColumnSql: '"id" bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY',
    timestampColumnSql: 'timestamptz NOT NULL DEFAULT now()',
    rowLockSql: ' FOR UPDATE',
    keyShareLockSql: ' FOR KEY SHARE',
    definitionCacheTtlMs: 60_000,
    numberedParameters: true,
    rowCountShards: 32,
    async plannedRows(read, select) {
      const [row] = await read<{ 'QUERY PLAN': unknown }>(
        CompiledQuery.raw(`EXPLAIN (FORMAT JSON) ${select.sql}`, [...select.parameters]),
      );
      const plan = row?.['QUERY PLAN'];
      const rows = Array.isArray(plan) ? (plan[0] as { Plan?: { 'Plan Rows'?: unknown } })?.Plan?.['Plan Rows'] : null;
      return typeof rows === 'number' ? Math.round(rows) : null;
    },
    likeSql: (out, column, pattern, ci) =>
      out
        .operand(column)
        .raw(` ${ci ? 'ILIKE' : 'LIKE'} `)
        .value(pattern),
    regexSql: (out, column, pattern, ci) =>
      out
        .operand(column)
        .raw(` ${ci ? '~*' : '~'} `)
        .value(pattern),
    // PostgreSQL checks the syntax itself (2201B) and statement_timeout bounds the time.
    regexRefusal: (pattern) => tooLong(pattern),
    jsonEqualsSql: (out, column, jsonText) => out.operand(column).raw(' = CAST(').value(jsonText).raw(' AS jsonb)'),
    jsonCompareSql: (out, column, op, jsonText) =>
      out.operand(column).raw(` ${op} CAST(`).value(jsonText).raw(' AS jsonb)'),
    isDistinctSql(out, column, value, json) {
      out.operand(column).raw(' IS DISTINCT FROM ');
      if (json) out.raw('CAST(').value(value).raw(' AS jsonb)');
      else out.value(value);
    },
    textSearchSql(out, column, op, config, query) {
      out.raw("to_tsvector('english'::regconfig, ").operand(column).raw(`) @@ ${TS_QUERY_FUNCTIONS[op]}(CAST(`);
      out.value(config).raw(' AS regconfig), ').value(query).raw(')');
    },
    containmentSql(out, column, op, jsonText) {
      if (op === 'cs') out.operand(column).raw(' @> CAST(').value(jsonText).raw(' AS jsonb)');
      else if (op === 'cd') out.operand(column).raw(' <@ CAST(').value(jsonText).raw(' AS jsonb)');
      else {
        // jsonb has no `&&`; NULL stays NULL so that `not.ov` skips NULL rows like the other operators.
        out.raw('CASE WHEN ').operand(column).raw(' IS NULL THEN NULL ELSE EXISTS (');
        out.raw('SELECT 1 FROM jsonb_array_elements(CASE WHEN jsonb_typeof(').operand(column).raw(") = 'array' THEN ");
        out.operand(column).raw(" ELSE '[]'::jsonb END) AS a(v) WHERE a.v IN (SELECT jsonb_array_elements(CAST(");
        out.value(jsonText).raw(' AS jsonb)))) END');
      }
    },
    // `("meta" -> CAST($1 AS text) ->> CAST($2 AS integer))`: each key bound, typed so that the operator is
    // jsonb's `-> text` (object key) or `-> integer` (array index), as PostgREST writes them.
    jsonPathSql: (column, path) => ({
      texts: path
        .map((s, i) => {
          const before = i === 0 ? `(${column}` : ` AS ${keyType(path[i - 1]?.key)})`;
          return `${before} ${s.arrow} CAST(`;
        })
        .concat(` AS ${keyType(path.at(-1)?.key)}))`),
      values: path.map((s) => s.key),
    }),
    jsonSortSql: (column) => column,
    // Whole and within bigint's range, or NULL (no id): the cast neither rounds nor overflows.
    idOfNumberSql: (n) => `CASE WHEN ${n} = trunc(${n}) AND abs(${n}) < 9.2e18 THEN CAST(${n} AS bigint) END`,
    relatedJson: { array: 'json_build_array', aggregate: 'json_agg', nested: '' },
    castSql: (value, sqlType) => sql`CAST(${value} AS ${sql.raw(sqlType)})`,
    async changeRequired(db, change) {
      const table = quoteIdentifier(change.table);
      const column = quoteIdentifier(change.column);
      await sql
        .raw(`ALTER TABLE ${table} ALTER COLUMN ${column} ${change.required ? 'SET' : 'DROP'} NOT NULL`)
        .execute(db);
    },
    async syncIdSequence(db, table, atLeast = 0) {
      // Moves the identity past the largest id without going back: the counter's next value stays if higher.
      const quoted = quoteIdentifier(table);
      await sql`SELECT setval(pg_get_serial_sequence(${quoted}, 'id'),
        GREATEST(COALESCE(MAX(id), 1), nextval(pg_get_serial_sequence(${quoted}, 'id')) - 1, ${Math.max(1, atLeast)}::bigint))
        FROM ${sql.raw(quoted)}`.execute(db);
    },
    async lockTable(db, table) {
      await sql.raw(`LOCK TABLE ${quoteIdentifier(table)} IN ACCESS EXCLUSIVE MODE`).execute(db);
    },
    describeError: describePostgresError,
    async tablesSizeBytes(read, tables) {
      if (tables.length === 0) return 0;
      const [row] = await read(
        textQuery<{ n: number | string | null }>(
          'SELECT COALESCE(SUM(pg_total_relation_size(to_regclass(t))), 0) AS n FROM unnest(CAST($1 AS text[])) AS t',
          [tables],
        ),
      );
      return Number(row?.n ?? 0);
    },
  };
}
