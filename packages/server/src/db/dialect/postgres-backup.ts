import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { quoteIdentifier } from '../identifiers.js';
import type { AnyKysely, BackupDialect, DatabaseBackup, Staging } from './backup-dialect.js';

// Backups of a PostgreSQL database (docs/backups.md).
//
// The engine's own copy is pg_dump's custom format of Basalt's schema, taken when a pg_dump at least as new as the
// server is installed (an older one refuses a newer server); it is a snapshot of one moment and never blocks
// writes. Without one, backups are Basalt's logical rows, read in one REPEATABLE READ, read-only transaction.
//
// A restore builds the new database in a schema of its own beside the live one (the logical rows), and swaps
// the two in one transaction: the live schema is renamed away and the new one takes its name. Other sessions go
// on reading the old tables until that commit and the new ones after it; a crash before the commit leaves the
// live schema untouched. A pg_dump archive names its schema in every statement, so it cannot be built elsewhere:
// it is restored by psql in one transaction that renames the live schema away, makes a new one and loads the
// dump into it (the same guarantee, the same reads meanwhile).

/** PG_DUMP_FILE_NAME is the dump inside an archive's database folder. */
export const PG_DUMP_FILE_NAME = 'basalt.dump';

// The schemas a restore makes: the one being built, and the one a swap renamed away.
const STAGING_PREFIX = 'basalt_restore_';
const REPLACED_PREFIX = 'basalt_replaced_';

/** connectionEnv is the libpq environment of a postgres:// URL, so that no password shows in a process list. */
function connectionEnv(databaseUrl: string): NodeJS.ProcessEnv {
  const url = new URL(databaseUrl);
  const env: NodeJS.ProcessEnv = { ...process.env, PGHOST: decodeURIComponent(url.hostname || 'localhost') };
  if (url.port) env.PGPORT = url.port;
  if (url.username) env.PGUSER = decodeURIComponent(url.username);
  if (url.password) env.PGPASSWORD = decodeURIComponent(url.password);
  const database = decodeURIComponent(url.pathname.replace(/^\//, ''));
  if (database) env.PGDATABASE = database;
  const sslmode = url.searchParams.get('sslmode');
  if (sslmode) env.PGSSLMODE = sslmode;
  return env;
}

const failureOf = (command: string, err: string, code: number | null) =>
  new Error(`${command} failed: ${err.trim().split('\n').slice(-3).join(' ') || `exit code ${code}`}`);

/** run runs a client program and resolves with its standard output, or rejects with its error output. */
function run(command: string, args: string[], options: { env?: NodeJS.ProcessEnv } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: options.env ?? process.env, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      err += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve(out);
      else reject(failureOf(command, err, code));
    });
    child.stdin.end();
  });
}

/** majorOf reads the major version of a PostgreSQL version text ("pg_dump (PostgreSQL) 15.2", "PostgreSQL 16.1"). */
function majorOf(text: string): number | null {
  const match = /(\d+)(?:\.\d+)?/.exec(text.replace(/^[^\d]*/, ''));
  return match ? Number(match[1]) : null;
}

/** clientMajor is the major version of an installed client program, or null when it is not installed. */
async function clientMajor(program: string): Promise<number | null> {
  try {
    return majorOf(await run(program, ['--version']));
  } catch {
    return null;
  }
}

async function serverMajor(db: AnyKysely): Promise<number | null> {
  const { rows } = await sql<{ v: string }>`SELECT current_setting('server_version') AS v`.execute(db);
  return majorOf(rows[0]?.v ?? '');
}

async function liveSchema(db: AnyKysely): Promise<string> {
  const { rows } = await sql<{ s: string | null }>`SELECT current_schema() AS s`.execute(db);
  const schema = rows[0]?.s;
  if (!schema) throw new Error('The database connection has no current schema');
  return schema;
}

// The prelude of a pg_dump restore, run by psql in the restore's one transaction.
function dumpPrelude(schema: string, replaced: string): string {
  const live = quoteIdentifier(schema);
  return `SET lock_timeout = '60s';
ALTER SCHEMA ${live} RENAME TO ${quoteIdentifier(replaced)};
CREATE SCHEMA ${live};
${moveExtensionSql(replaced, schema)}
`;
}

// Copies a kept table's rows from the replaced schema into the loaded one, in the swap's transaction, when both
// have the table with the same columns (an archive at another migration level is carried over after migrating).
function keepRowsSql(live: string, replaced: string, table: string): string {
  const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;
  const columns = (schema: string) => `(SELECT array_agg(column_name::text ORDER BY ordinal_position)
    FROM information_schema.columns WHERE table_schema = ${literal(schema)} AND table_name = ${literal(table)})`;
  return `DO $$ BEGIN
  IF ${columns(live)} IS NOT NULL AND ${columns(live)} = ${columns(replaced)} THEN
    EXECUTE format('DELETE FROM %I.%I', ${literal(live)}, ${literal(table)});
    EXECUTE format('INSERT INTO %I.%I SELECT * FROM %I.%I', ${literal(live)}, ${literal(table)}, ${literal(replaced)}, ${literal(table)});
  END IF;
END $$;`;
}

// pg_trgm (the log search's index, migration 0006) usually lives in the live schema: it follows the tables' name.
function moveExtensionSql(from: string, to: string): string {
  const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;
  return `DO $$ BEGIN
  IF EXISTS (SELECT 1 FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
             WHERE e.extname = 'pg_trgm' AND n.nspname = ${literal(from)}) THEN
    EXECUTE format('ALTER EXTENSION pg_trgm SET SCHEMA %I', ${literal(to)});
  END IF;
END $$;`;
}

function bind(kysely: AnyKysely, options: { databaseUrl: string | null }): DatabaseBackup {
  const databaseUrl = options.databaseUrl;
  if (!databaseUrl) throw new Error('postgresBackup needs DATABASE_URL');
  const env = connectionEnv(databaseUrl);
  let native: Promise<'pg-dump' | null> | null = null;
  return {
    nativeFormat() {
      native ??= (async () => {
        const [client, server] = await Promise.all([clientMajor('pg_dump'), serverMajor(kysely)]);
        return client !== null && server !== null && client >= server ? 'pg-dump' : null;
      })();
      return native;
    },
    // Not paced (the pacer is for reading outside a snapshot): pg_dump reads in one REPEATABLE READ transaction,
    // and while its snapshot is open no row version written meanwhile can be pruned, so every update of a hot row
    // (the kept row counts, bumped by each create) walks a longer chain: the writes slow down the longer the dump
    // holds it. So the dump is made as short as it can be: uncompressed (-Z0), at normal priority, flushed by
    // nobody (--no-sync: the archive is); the compressing, hashing and packing come after the snapshot, paced.
    async snapshotNative(dir, onBytes) {
      const schema = await liveSchema(kysely);
      const target = path.join(dir, PG_DUMP_FILE_NAME);
      const timer = setInterval(() => fs.stat(target, (error, stat) => !error && onBytes(stat.size)), 500);
      timer.unref();
      try {
        // The catalogue of backups, the leases and the bus's outbox are the instance's, not its data's.
        const noData = ['database_backups', 'backup_settings', 'backup_leases', 'event_outbox', 'rate_limits'];
        await run(
          'pg_dump',
          [
            '--format=custom',
            '--compress=0',
            '--no-owner',
            '--no-privileges',
            '--no-sync',
            `--schema=${schema}`,
            ...noData.map((table) => `--exclude-table-data=${quoteIdentifier(schema)}.${quoteIdentifier(table)}`),
            `--file=${target}`,
          ],
          { env },
        );
      } finally {
        clearInterval(timer);
      }
      onBytes(fs.statSync(target).size);
      return [PG_DUMP_FILE_NAME];
    },
    snapshotMayRest: false,
    async inSnapshot(_workDir, fn) {
      return kysely
        .transaction()
        .setIsolationLevel('repeatable read')
        .execute(async (trx) => {
          await sql`SET TRANSACTION READ ONLY`.execute(trx);
          return fn(trx);
        });
    },
    async nativeRestoreRefusal(format, sourceVersion) {
      if (format !== 'pg-dump') return null;
      const [client, psql, server] = await Promise.all([
        clientMajor('pg_restore'),
        clientMajor('psql'),
        serverMajor(kysely),
      ]);
      const dumped = sourceVersion ? majorOf(sourceVersion) : null;
      const needed = Math.max(dumped ?? 0, server ?? 0);
      if (client === null || psql === null || client < needed) {
        return `This archive holds a PostgreSQL dump (pg_dump custom format); restoring it needs pg_restore and psql ${needed} or newer, which this server does not have. Install PostgreSQL's client programs, or restore a backup taken with BACKUP_FORMAT=logical.`;
      }
      return null;
    },
    async cleanUp() {
      const { rows } = await sql<{ name: string }>`SELECT nspname AS name FROM pg_namespace
        WHERE nspname LIKE ${`${STAGING_PREFIX}%`} OR nspname LIKE ${`${REPLACED_PREFIX}%`}`.execute(kysely);
      for (const row of rows)
        await sql`DROP SCHEMA IF EXISTS ${sql.raw(quoteIdentifier(row.name))} CASCADE`.execute(kysely);
    },
    async stage(workDir, { keep }) {
      const schema = await liveSchema(kysely);
      const suffix = randomBytes(6).toString('hex');
      const staging = `${STAGING_PREFIX}${suffix}`;
      const replaced = `${REPLACED_PREFIX}${suffix}`;
      let dump: string | null = null;
      let swapped = false;
      await sql`CREATE SCHEMA ${sql.raw(quoteIdentifier(staging))}`.execute(kysely);
      const result: Staging = {
        location: { databaseUrl, dataDir: workDir, searchPath: [staging, schema] },
        opensBeforeSwap: true,
        async loadNative(file, format) {
          if (format !== 'pg-dump') throw new Error(`A ${format} part is not PostgreSQL's own`);
          dump = file;
          result.opensBeforeSwap = false;
        },
        async swapIn() {
          if (dump) {
            await sql`DROP SCHEMA IF EXISTS ${sql.raw(quoteIdentifier(staging))} CASCADE`.execute(kysely);
            const list = path.join(workDir, 'restore.list');
            const entries = await run('pg_restore', ['--list', dump]);
            // The schema itself is made by the prelude (pg_dump leaves `public` out and would make any other).
            const kept = entries.split('\n').filter((line) => !/^\d+;.* SCHEMA - /.test(line));
            fs.writeFileSync(list, kept.join('\n'));
            const prelude = path.join(workDir, 'restore-prelude.sql');
            fs.writeFileSync(prelude, dumpPrelude(schema, replaced));
            const postlude = path.join(workDir, 'restore-postlude.sql');
            fs.writeFileSync(postlude, keep.map((table) => keepRowsSql(schema, replaced, table)).join('\n'));
            // The dump's SQL is written out first: psql reading a stream that stopped short would commit a part.
            const script = path.join(workDir, 'restore.sql');
            await run('pg_restore', ['--no-owner', '--no-privileges', `--use-list=${list}`, `--file=${script}`, dump]);
            await run(
              'psql',
              [
                '-X',
                '-q',
                '-v',
                'ON_ERROR_STOP=1',
                '--single-transaction',
                '-f',
                prelude,
                '-f',
                script,
                '-f',
                postlude,
              ],
              {
                env,
              },
            );
            swapped = true;
            return;
          }
          await kysely.transaction().execute(async (trx) => {
            await sql`SET LOCAL lock_timeout = '60s'`.execute(trx);
            await sql`ALTER SCHEMA ${sql.raw(quoteIdentifier(schema))} RENAME TO ${sql.raw(quoteIdentifier(replaced))}`.execute(
              trx,
            );
            await sql`ALTER SCHEMA ${sql.raw(quoteIdentifier(staging))} RENAME TO ${sql.raw(quoteIdentifier(schema))}`.execute(
              trx,
            );
            await sql.raw(moveExtensionSql(replaced, schema)).execute(trx);
          });
          swapped = true;
        },
        async discard() {
          const gone = swapped ? replaced : staging;
          await sql`DROP SCHEMA IF EXISTS ${sql.raw(quoteIdentifier(gone))} CASCADE`.execute(kysely);
        },
      };
      return result;
    },
  };
}

/** postgresBackup is the PostgreSQL engine's part of backups and restores. */
export const postgresBackup: BackupDialect = {
  bind: (kysely, _connection, options) => bind(kysely, options),
  async tableNames(db) {
    const { rows } = await sql<{ name: string }>`SELECT c.relname AS name FROM pg_class c
      WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'p') ORDER BY c.oid`.execute(db);
    return rows.map((row) => row.name);
  },
  async foreignKeys(db) {
    const { rows } = await sql<{ table: string; references: string }>`SELECT c.conrelid::regclass::text AS "table",
        c.confrelid::regclass::text AS "references"
      FROM pg_constraint c WHERE c.contype = 'f' AND c.connamespace = current_schema()::regnamespace`.execute(db);
    const unquote = (name: string) => (name.startsWith('"') ? name.slice(1, -1).replaceAll('""', '"') : name);
    return rows.map((row) => ({ table: unquote(row.table), references: unquote(row.references) }));
  },
  async idCounters(db, tables) {
    const counters: Record<string, number> = {};
    for (const table of tables) {
      const { rows } = await sql<{ n: number | string | null }>`SELECT pg_sequence_last_value(
          pg_get_serial_sequence(${quoteIdentifier(table)}, 'id')::regclass) AS n
        WHERE EXISTS (SELECT 1 FROM information_schema.columns
          WHERE table_schema = current_schema() AND table_name = ${table} AND column_name = 'id')
          AND pg_get_serial_sequence(${quoteIdentifier(table)}, 'id') IS NOT NULL`.execute(db);
      const value = rows[0]?.n;
      if (value !== null && value !== undefined) counters[table] = Number(value);
    }
    return counters;
  },
};
