import type { Db } from '../../db/database.js';
import { userTableName } from '../../db/identifiers.js';
import { countActivity } from '../activity/activity.store.js';
import { apiCallsThisPeriod } from '../billing/usage.service.js';
import { storageUsageOf } from '../storage/storage.store.js';
import { listTableDefinitions } from '../table-definitions/table-definitions.store.js';

/** Stats are the dashboard's three cards. */
export interface Stats {
  /** The number of the account's activity entries. */
  activities: number;
  /** The account's API calls in its billing period, as Billing's usage counts them (the "API Requests" card). */
  apiCalls: number;
  /** The storage the account's tables take, readable ("0 MB", "12.4 KB", "1.2 MB"). */
  storageSize: string;
  /** The bytes of the account's stored files (file storage's kept counter), readable like storageSize. */
  filesSize: string;
  /** The tables and the stored files together, readable: what the "Database Size" card shows. */
  totalSize: string;
  /** The number of the account's tables. */
  tables: number;
}

const UNITS = ['KB', 'MB', 'GB', 'TB'];

/** formatStorageSize renders a byte count for people: "0 MB" when empty (the console's default), else one decimal. */
export function formatStorageSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return '0 MB';
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(1)} ${UNITS[unit]}`;
}

/**
 * getStats counts the account's activity, API calls (this billing period) and tables and measures its tables' storage: pages used, indexes
 * included (SQLite's dbstat, PostgreSQL's pg_total_relation_size), and its stored files (a kept counter, not a walk).
 */
export async function getStats(db: Db, accountId: string): Promise<Stats> {
  const [activities, apiCalls, tables, files] = await Promise.all([
    countActivity(db.kysely, accountId),
    apiCallsThisPeriod(db, accountId),
    listTableDefinitions(db.kysely, accountId),
    storageUsageOf(db.kysely, accountId),
  ]);
  const bytes = await db.dialect.userTables.tablesSizeBytes(
    db.readInBackground,
    tables.map((t) => userTableName(t.id)),
  );
  return {
    activities,
    apiCalls,
    storageSize: formatStorageSize(bytes),
    filesSize: formatStorageSize(files.bytes),
    totalSize: formatStorageSize(Number(bytes) + files.bytes),
    tables: tables.length,
  };
}
