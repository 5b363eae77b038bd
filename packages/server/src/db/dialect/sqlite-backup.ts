import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { LowPriorityError, moduleUrl, runLowPriority } from '../backup/low-priority.js';
import type { AnyKysely, BackupDialect, DatabaseBackup, Staging } from './backup-dialect.js';

// Backups of the embedded SQLite file (docs/backups.md).
//
// A copy is made with SQLite's online backup API in a process of its own with its own connection, in one step: the
// step reads the file in one read transaction, which in WAL mode never blocks the server's writes (they go on
// appending to the WAL; the copy is the database as of the step's start), and the event loop never stops for it.
// Copying in many small steps would start over whenever another connection wrote between two steps, which a
// server under load always does.
//
// A restore builds the new database as a file of its own, then copies it over the live one with the same API,
// again in one step: the copy is one write transaction on the live file, so a crash in the middle leaves the WAL
// without its commit and SQLite keeps the old pages. The server's own connection sees the new database at its next
// statement (SQLite notices the changed schema and prepares statements again).

/** SQLITE_FILE_NAME is the database file inside a data directory (and inside an archive's database folder). */
export const SQLITE_FILE_NAME = 'basalt.db';

// The whole file in one step (the largest step better-sqlite3 accepts).
const ONE_STEP = 0x7fffffff;
// The live file may be locked for a moment by a background write (the log writer, the meter): the copy waits.
const SWAP_ATTEMPTS = 50;
const SWAP_RETRY_MS = 100;

// The copy, in a child process at the lowest priority (db/backup/low-priority.ts): a gigabyte's copy never takes
// the server's CPU time when the machine is busy.
const COPY = `
  const { default: Database } = await import(input.driverUrl);
  const source = new Database(input.from, { fileMustExist: true, readonly: input.readonly });
  try {
    await source.backup(input.to, { progress: () => input.step });
  } finally {
    source.close();
  }`;

/** copyDatabase copies the database `from` into the file `to` with the backup API. */
function copyDatabase(from: string, to: string, options: { readonly: boolean }): Promise<void> {
  return runLowPriority(COPY, {
    driverUrl: moduleUrl('better-sqlite3'),
    from,
    to,
    readonly: options.readonly,
    step: ONE_STEP,
  });
}

// Reports the size of a file being written, every half second, until stopped.
function watchSize(file: string, onBytes: (bytes: number) => void): () => void {
  const timer = setInterval(() => {
    fs.stat(file, (error, stat) => {
      if (!error) onBytes(stat.size);
    });
  }, 500);
  timer.unref();
  return () => clearInterval(timer);
}

/** openSqliteSnapshot opens a copied database file read-only, for the logical format's reader. */
export function openSqliteSnapshot(file: string): AnyKysely {
  const database = new Database(file, { readonly: true, fileMustExist: true });
  return new Kysely({ dialect: new SqliteDialect({ database }) });
}

function liveFileOf(dataDir: string): string {
  return path.join(dataDir, SQLITE_FILE_NAME);
}

async function swapWithRetries(staged: string, live: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await copyDatabase(staged, live, { readonly: true });
      return;
    } catch (error) {
      const busy = error instanceof LowPriorityError && /SQLITE_BUSY|locked/i.test(`${error.code} ${error.message}`);
      if (!busy || attempt >= SWAP_ATTEMPTS) throw error;
      await new Promise((resolve) => setTimeout(resolve, SWAP_RETRY_MS));
    }
  }
}

function bind(_kysely: AnyKysely, _connection: object, options: { dataDir: string }): DatabaseBackup {
  const live = liveFileOf(options.dataDir);
  const snapshotInto = async (dir: string, onBytes: (bytes: number) => void) => {
    const target = path.join(dir, SQLITE_FILE_NAME);
    const stop = watchSize(target, onBytes);
    try {
      await copyDatabase(live, target, { readonly: true });
    } finally {
      stop();
    }
    onBytes(fs.statSync(target).size);
    return target;
  };
  return {
    nativeFormat: async () => 'sqlite-file',
    // The logical format reads a copy of the file: it may take its time.
    snapshotMayRest: true,
    async snapshotNative(dir, onBytes) {
      await snapshotInto(dir, onBytes);
      return [SQLITE_FILE_NAME];
    },
    async inSnapshot(workDir, fn) {
      const file = await snapshotInto(workDir, () => {});
      const view = openSqliteSnapshot(file);
      try {
        return await fn(view);
      } finally {
        await view.destroy();
        fs.rmSync(file, { force: true });
      }
    },
    async nativeRestoreRefusal(format) {
      if (format === 'pg-dump') {
        return 'This archive holds a PostgreSQL dump (pg_dump custom format), which only a PostgreSQL server can restore. To move this data onto SQLite, take a backup with BACKUP_FORMAT=logical.';
      }
      return null;
    },
    // A staged file lives in the restore's work folder, which the caller removes.
    cleanUp: async () => {},
    // The staged file is always opened and given the kept rows before the swap (`keep` is for a pg_dump).
    async stage(workDir) {
      const dataDir = path.join(workDir, 'staging');
      fs.mkdirSync(dataDir, { recursive: true });
      const staged = liveFileOf(dataDir);
      const staging: Staging = {
        location: { databaseUrl: null, dataDir, searchPath: null },
        opensBeforeSwap: true,
        async loadNative(file) {
          fs.copyFileSync(file, staged);
        },
        async swapIn() {
          // The staged file is closed: fold its WAL in, so that the copy reads one self-contained file.
          const file = new Database(staged, { fileMustExist: true });
          try {
            file.pragma('wal_checkpoint(TRUNCATE)');
          } finally {
            file.close();
          }
          await swapWithRetries(staged, live);
        },
        async discard() {
          fs.rmSync(dataDir, { recursive: true, force: true });
        },
      };
      return staging;
    },
  };
}

/** sqliteBackup is the SQLite engine's part of backups and restores. */
export const sqliteBackup: BackupDialect = {
  bind: (kysely, connection, options) => bind(kysely, connection, options),
  async tableNames(db) {
    const { rows } = await sql<{ name: string }>`SELECT name FROM sqlite_schema
      WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND sql NOT LIKE 'CREATE VIRTUAL%'
      ORDER BY rowid`.execute(db);
    return rows.map((row) => row.name);
  },
  async foreignKeys(db) {
    const edges = [];
    for (const table of await sqliteBackup.tableNames(db)) {
      const { rows } = await sql<{ table: string }>`SELECT "table" FROM pragma_foreign_key_list(${table})`.execute(db);
      for (const row of rows) edges.push({ table, references: row.table });
    }
    return edges;
  },
  async idCounters(db, tables) {
    const { rows } = await sql<{ name: string; seq: number }>`SELECT name, seq FROM sqlite_sequence`.execute(db);
    const wanted = new Set(tables);
    const counters: Record<string, number> = {};
    for (const row of rows) if (wanted.has(row.name)) counters[row.name] = Number(row.seq);
    return counters;
  },
};
