import fs from 'node:fs/promises';
import path from 'node:path';
import { type Db, migrateToLatest, openDatabase, systemMigrator } from '../database.js';
import type { DatabasePartFormat } from '../dialect/backup-dialect.js';
import { sqliteDialect } from '../dialect/sqlite.js';
import { openSqliteSnapshot, SQLITE_FILE_NAME } from '../dialect/sqlite-backup.js';
import { LOGICAL_INDEX, type LogicalProgress, readLogicalIndex, rowsFileOf, writeLogical } from './logical-format.js';
import { importLogical } from './logical-import.js';
import { type Pacer, unpaced } from './pace.js';

// The database's part of an archive (docs/backups.md): written by the engine itself where it can (SQLite's file,
// pg_dump) or as Basalt's logical rows; restored by building the new database beside the live one and swapping
// it in at once (db/dialect/*-backup.ts). Which part restores how:
//
//   part          onto SQLite                          onto PostgreSQL
//   sqlite-file   the file, migrated, copied over      read as logical rows into a new schema, swapped
//   logical       rows into a new file, copied over    rows into a new schema, swapped
//   pg-dump       refused (only PostgreSQL reads it)   psql loads it in the swap's own transaction

/** DatabasePart is what writeDatabasePart wrote: its format and its files, relative to its folder. */
export interface DatabasePart {
  format: DatabasePartFormat;
  files: string[];
}

/** appliedMigrations lists the system migrations a database has run (its level), by name. */
export async function appliedMigrations(db: Db): Promise<string[]> {
  const migrations = await systemMigrator(db).getMigrations();
  return migrations.filter((m) => m.executedAt !== undefined).map((m) => m.name);
}

/**
 * writeDatabasePart writes a consistent copy of the live database into `dir` while writes go on: the engine's own
 * copy unless `logical` is asked for or the engine has none. Reading a copy keeps to the pacer's pace (BACKUP_PACE);
 * reading inside the live database's snapshot goes flat out, to hold it as briefly as it can.
 */
export async function writeDatabasePart(
  db: Db,
  dir: string,
  options: { logical: boolean; workDir: string; pacer: Pacer; onProgress: (progress: LogicalProgress) => void },
): Promise<DatabasePart> {
  await fs.mkdir(dir, { recursive: true });
  const native = options.logical ? null : await db.backup.nativeFormat();
  if (native) {
    const files = await db.backup.snapshotNative(dir, (bytes) => options.onProgress({ rows: 0, bytes }));
    return { format: native, files };
  }
  const index = await db.backup.inSnapshot(options.workDir, (view) =>
    writeLogical(view, db.dialect, dir, options.onProgress, db.backup.snapshotMayRest ? options.pacer : unpaced()),
  );
  return {
    format: 'logical',
    files: [LOGICAL_INDEX, ...index.tables.map((t) => path.relative(dir, rowsFileOf(dir, t.name)))],
  };
}

/** RestorePlan is what a restore reads from an archive's database part. */
export interface RestorePlan {
  /** The folder the part was extracted into. */
  dir: string;
  format: DatabasePartFormat;
  /** The migrations the archive's database had run. */
  migrations: string[];
  /** The source server's version text (pg_dump needs a client at least as new). */
  engineVersion: string | null;
}

/** RestoreHooks are what the caller adds to a restore: the rows it keeps, and a word at each step. */
export interface RestoreHooks {
  /** keepTables are the tables carryOver writes (a swap that loads the archive itself copies them across). */
  keepTables: readonly string[];
  /** carryOver writes what the instance keeps across a restore (the catalogue of backups) into `target`. */
  carryOver(target: Db): Promise<void>;
  onStep(step: string): void;
  onProgress(progress: LogicalProgress): void;
}

/** restoreRefusal says why a database part cannot be restored onto this database, or null when it can. */
export async function restoreRefusal(db: Db, plan: Pick<RestorePlan, 'format' | 'engineVersion'>) {
  return db.backup.nativeRestoreRefusal(plan.format, plan.engineVersion);
}

/**
 * replaceDatabase replaces the live database by the archive's: built beside it, brought to this server's
 * migration level, given the rows the instance keeps, then swapped in at once. A failure before the swap leaves
 * the live database untouched.
 */
export async function replaceDatabase(live: Db, plan: RestorePlan, workDir: string, hooks: RestoreHooks) {
  const staging = await live.backup.stage(workDir, { keep: hooks.keepTables });
  const nativeHere =
    (plan.format === 'sqlite-file' && live.dialect.name === 'sqlite') ||
    (plan.format === 'pg-dump' && live.dialect.name === 'postgres');
  try {
    if (nativeHere) {
      hooks.onStep('loading the database file');
      await staging.loadNative(path.join(plan.dir, nativeFileOf(plan.format)), plan.format);
    }
    if (!staging.opensBeforeSwap) {
      hooks.onStep('swapping the database in');
      await staging.swapIn();
      await migrateToLatest(live);
      await hooks.carryOver(live);
      return;
    }
    const staged = openDatabase(staging.location, { searchPath: staging.location.searchPath, ownBus: true });
    // On PostgreSQL the migrations' own table is named in the new schema, not found through the search path.
    const schema = staging.location.searchPath?.[0];
    try {
      if (!nativeHere) {
        hooks.onStep('writing the rows');
        const dir = plan.format === 'logical' ? plan.dir : await sqliteFileToLogical(plan.dir, workDir);
        await migrateToLatest(staged, { only: plan.migrations, schema });
        await importLogical(staged, dir, await readLogicalIndex(dir), hooks.onProgress);
      }
      hooks.onStep('migrating');
      await migrateToLatest(staged, { schema });
      await hooks.carryOver(staged);
    } finally {
      await staged.close();
    }
    hooks.onStep('swapping the database in');
    await staging.swapIn();
  } finally {
    await staging.discard();
  }
}

function nativeFileOf(format: DatabasePartFormat): string {
  if (format === 'sqlite-file') return SQLITE_FILE_NAME;
  if (format === 'pg-dump') return 'basalt.dump';
  throw new Error('A logical part has no file of its engine');
}

// A SQLite file restored onto PostgreSQL is read into the logical format first.
async function sqliteFileToLogical(dir: string, workDir: string): Promise<string> {
  const out = path.join(workDir, 'logical');
  const view = openSqliteSnapshot(path.join(dir, SQLITE_FILE_NAME));
  try {
    await writeLogical(view, sqliteDialect, out);
  } finally {
    await view.destroy();
  }
  return out;
}
