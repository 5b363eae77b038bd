import type { Kysely, Selectable } from 'kysely';
import type { DatabaseBackupsTable, SystemDatabase } from '../../db/schema.js';

// The catalogue of backups, the schedule and the lease (migration 0032). Only SQL.

type Executor = Kysely<SystemDatabase>;

/** BackupRow is one row of database_backups. */
export type BackupRow = Selectable<DatabaseBackupsTable>;

/** CATALOGUE_TABLES are the tables a restore keeps as they are (they describe the instance, not its data). */
export const CATALOGUE_TABLES = ['database_backups', 'backup_settings', 'backup_leases'] as const;

/** insertBackup adds a backup's row. */
export async function insertBackup(db: Executor, row: DatabaseBackupsTable): Promise<void> {
  await db.insertInto('database_backups').values(row).execute();
}

/** findBackup reads one backup by id. */
export async function findBackup(db: Executor, id: string): Promise<BackupRow | undefined> {
  return db.selectFrom('database_backups').selectAll().where('id', '=', id).executeTakeFirst();
}

/** listBackups lists every backup, newest first. */
export async function listBackups(db: Executor): Promise<BackupRow[]> {
  return db.selectFrom('database_backups').selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
}

/** updateBackup changes fields of a backup's row. */
export async function updateBackup(db: Executor, id: string, fields: Partial<DatabaseBackupsTable>): Promise<void> {
  await db.updateTable('database_backups').set(fields).where('id', '=', id).execute();
}

/** deleteBackupRow removes a backup's row. */
export async function deleteBackupRow(db: Executor, id: string): Promise<void> {
  await db.deleteFrom('database_backups').where('id', '=', id).execute();
}

/** listScheduledBackups lists the completed scheduled backups, newest first (retention keeps the first ones). */
export async function listScheduledBackups(db: Executor): Promise<BackupRow[]> {
  return db
    .selectFrom('database_backups')
    .selectAll()
    .where('origin', '=', 'scheduled')
    .where('status', '=', 'COMPLETED')
    .orderBy('created_at', 'desc')
    .execute();
}

/** listUnfinished lists backups still marked IN_PROGRESS, and restores still marked IN_PROGRESS. */
export async function listUnfinished(db: Executor): Promise<BackupRow[]> {
  return db
    .selectFrom('database_backups')
    .selectAll()
    .where((eb) => eb.or([eb('status', '=', 'IN_PROGRESS'), eb('restore_status', '=', 'IN_PROGRESS')]))
    .execute();
}

/** readSetting reads one backup setting (JSON text), or null. */
export async function readSetting(db: Executor, key: string): Promise<string | null> {
  const row = await db.selectFrom('backup_settings').select('value').where('key', '=', key).executeTakeFirst();
  return row?.value ?? null;
}

/** writeSetting sets one backup setting. */
export async function writeSetting(db: Executor, key: string, value: string): Promise<void> {
  await db
    .insertInto('backup_settings')
    .values({ key, value })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
    .execute();
}

/** claimSetting moves a setting from `expected` (or absence) to `value`; false when another node did first. */
export async function claimSetting(db: Executor, key: string, expected: string | null, value: string) {
  if (expected === null) {
    const inserted = await db
      .insertInto('backup_settings')
      .values({ key, value })
      .onConflict((oc) => oc.column('key').doNothing())
      .executeTakeFirst();
    return Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1;
  }
  const updated = await db
    .updateTable('backup_settings')
    .set({ value })
    .where('key', '=', key)
    .where('value', '=', expected)
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) === 1;
}

/** Lease is the row of the node that backs up or restores. */
export interface Lease {
  holder: string;
  operation: string;
  backupId: string | null;
  expiresAt: string;
}

const LEASE = 'instance';

/** takeLease takes the instance's lease unless another holder has it unexpired; true when taken. */
export async function takeLease(db: Executor, lease: Lease, now: string): Promise<boolean> {
  const row = {
    holder: lease.holder,
    operation: lease.operation,
    backup_id: lease.backupId,
    expires_at: lease.expiresAt,
  };
  const result = await db
    .insertInto('backup_leases')
    .values({ name: LEASE, ...row })
    .onConflict((oc) =>
      oc
        .column('name')
        .doUpdateSet(row)
        .where((eb) =>
          eb.or([eb('backup_leases.expires_at', '<', now), eb('backup_leases.holder', '=', lease.holder)]),
        ),
    )
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
}

/** renewLease moves the lease's expiry on, if the holder still has it; false when it was lost. */
export async function renewLease(db: Executor, holder: string, expiresAt: string): Promise<boolean> {
  const result = await db
    .updateTable('backup_leases')
    .set({ expires_at: expiresAt })
    .where('name', '=', LEASE)
    .where('holder', '=', holder)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** releaseLease gives the lease up, if the holder has it. */
export async function releaseLease(db: Executor, holder: string): Promise<void> {
  await db.deleteFrom('backup_leases').where('name', '=', LEASE).where('holder', '=', holder).execute();
}

/** readLease reads the lease, expired or not, or null when nobody holds one. */
export async function readLease(db: Executor): Promise<Lease | null> {
  const row = await db.selectFrom('backup_leases').selectAll().where('name', '=', LEASE).executeTakeFirst();
  return row
    ? { holder: row.holder, operation: row.operation, backupId: row.backup_id, expiresAt: row.expires_at }
    : null;
}

/** CatalogueRows are the kept tables' rows, read before a restore and written into the restored database. */
export type CatalogueRows = Record<(typeof CATALOGUE_TABLES)[number], Array<Record<string, unknown>>>;

/** readCatalogue reads every row of the kept tables. */
export async function readCatalogue(db: Executor): Promise<CatalogueRows> {
  return {
    database_backups: await db.selectFrom('database_backups').selectAll().execute(),
    backup_settings: await db.selectFrom('backup_settings').selectAll().execute(),
    backup_leases: await db.selectFrom('backup_leases').selectAll().execute(),
  };
}

/** writeCatalogue replaces the kept tables' rows of a database (a restored one) by the given rows. */
export async function writeCatalogue(db: Executor, rows: CatalogueRows): Promise<void> {
  await db.transaction().execute(async (trx) => {
    // biome-ignore lint/suspicious/noExplicitAny: the rows were read from the same tables, at the same level.
    const loose = trx as Kysely<any>;
    for (const table of CATALOGUE_TABLES) {
      await loose.deleteFrom(table).execute();
      for (const row of rows[table]) await loose.insertInto(table).values(row).execute();
    }
  });
}
