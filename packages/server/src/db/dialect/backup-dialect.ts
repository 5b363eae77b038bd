import type { Dialect, Kysely } from 'kysely';

// What backups and restores need of an engine (docs/backups.md). db/dialect/sqlite-backup.ts and
// postgres-backup.ts implement it alike; the engine-neutral rest (the logical format, the order of a restore) is
// in db/backup/.

/**
 * DatabasePartFormat is how an archive holds the database: SQLite's own file (a consistent copy), pg_dump's
 * custom format, or Basalt's logical rows (db/backup/logical-format.ts), which restore onto either engine.
 */
export type DatabasePartFormat = 'sqlite-file' | 'pg-dump' | 'logical';

/** AnyKysely is a Kysely over tables known only at run time (every table of a database, user tables included). */
// biome-ignore lint/suspicious/noExplicitAny: the tables of a snapshot are known only when it is read.
export type AnyKysely = Kysely<any>;

/** ForeignKeyEdge says that `table` refers to rows of `references`. */
export interface ForeignKeyEdge {
  table: string;
  references: string;
}

/** StagingLocation is where a restore builds the new database: a data directory, or a schema of the server. */
export interface StagingLocation {
  databaseUrl: string | null;
  dataDir: string;
  /** The PostgreSQL schemas to look names up in, the one to build in first (null: the connection's own). */
  searchPath: string[] | null;
}

/** Staging is the place beside the live database where a restore builds the new one. */
export interface Staging {
  location: StagingLocation;
  /**
   * opensBeforeSwap: the staged database can be opened and filled before the swap (false once a pg_dump was
   * loaded: psql loads it during the swap itself, into the live schema's name).
   */
  opensBeforeSwap: boolean;
  /** loadNative fills the staging place from an archive's part of this engine's own format, before it is opened. */
  loadNative(file: string, format: DatabasePartFormat): Promise<void>;
  /**
   * swapIn replaces the live database by the staged one in one step: a crash leaves one or the other, never a
   * mix. The staged database must be closed first (SQLite) or idle (PostgreSQL).
   */
  swapIn(): Promise<void>;
  /** discard removes what is left: the staged database, or after swapIn the one it replaced. */
  discard(): Promise<void>;
}

/** DatabaseBackup is the engine's part of backups, bound to one open database (`db.backup`). */
export interface DatabaseBackup {
  /**
   * nativeFormat is the format of the engine's own copy (sqlite-file; pg-dump when a pg_dump at least as new as
   * the server is installed), or null when there is none (then backups are logical).
   */
  nativeFormat(): Promise<DatabasePartFormat | null>;
  /**
   * snapshotNative writes the engine's own consistent copy of the live database into `dir` while writes go on,
   * reporting the bytes written so far; it returns the file names it wrote. It is never paced (SQLite's is one
   * step; pg_dump's snapshot costs the writes more the longer it is held).
   */
  snapshotNative(dir: string, onBytes: (bytes: number) => void): Promise<string[]>;
  /**
   * snapshotMayRest says whether reading inside `inSnapshot` may be paced: a copy may (SQLite), a transaction on the
   * live database should not (PostgreSQL: no row version written while it is open can be pruned meanwhile).
   */
  snapshotMayRest: boolean;
  /**
   * inSnapshot runs fn on a read-only view of the whole database as of one moment, while writes go on (SQLite: a
   * copy of the file in `workDir`; PostgreSQL: a REPEATABLE READ transaction).
   */
  inSnapshot<T>(workDir: string, fn: (view: AnyKysely) => Promise<T>): Promise<T>;
  /** nativeRestoreRefusal says why a part of `format` cannot be restored here, or null when it can. */
  nativeRestoreRefusal(format: DatabasePartFormat, sourceVersion: string | null): Promise<string | null>;
  /**
   * stage makes an empty place beside the live database for a restore to fill (`workDir` holds SQLite's). `keep`
   * names tables whose rows a swap that loads the archive itself (a pg_dump) carries over from the live database
   * in its own transaction, when the loaded tables have the same columns.
   */
  stage(workDir: string, options: { keep: readonly string[] }): Promise<Staging>;
  /** cleanUp removes what a restore that died left in the database (PostgreSQL's staging schemas). */
  cleanUp(): Promise<void>;
}

/** BackupDialect is what differs between the engines in backups and restores. */
export interface BackupDialect {
  /** bind makes the backup functions of one open database (`connection` is what createKyselyDialect returned). */
  bind(
    kysely: AnyKysely,
    connection: Dialect,
    options: { databaseUrl: string | null; dataDir: string },
  ): DatabaseBackup;
  /** tableNames lists the database's tables (Basalt's schema on PostgreSQL), without the engine's own. */
  tableNames(db: AnyKysely): Promise<string[]>;
  /** foreignKeys lists which table refers to which, so that rows are written referred-to first. */
  foreignKeys(db: AnyKysely): Promise<ForeignKeyEdge[]>;
  /** idCounters reads each table's id counter (the largest id handed out, deleted rows included). */
  idCounters(db: AnyKysely, tables: string[]): Promise<Record<string, number>>;
}
