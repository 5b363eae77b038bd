import type { Pagination } from '@basalt/shared';
import type { Kysely } from 'kysely';
import type { SqlDialect } from '../../db/dialect/dialect.js';
import type { SystemDatabase } from '../../db/schema.js';
import {
  type ChangeFilter,
  type ChangeInput,
  type ChangeRow,
  countChanges,
  insertChanges,
  listChangesPage,
} from './history.store.js';

/** HistoryChange is one change as the console's History tab shows it (spec console-management §3). */
export interface HistoryChange {
  id: number;
  changeType: string;
  tableName: string;
  tableId: number;
  recordId: number | null;
  timestamp: string;
  previousState: unknown;
  newState: unknown;
  userId: string | null;
  /** The change this one reverted (a revert or a restore wrote it); null for any other change. */
  revertOf: number | null;
}

/** parseState reads a stored state (JSON text, or null). */
export const parseState = (text: string | null): unknown => (text === null ? null : JSON.parse(text));

/** toHistoryChange renders a stored change. */
export function toHistoryChange(row: ChangeRow): HistoryChange {
  return {
    id: Number(row.id),
    changeType: row.change_type,
    tableName: row.table_name,
    tableId: Number(row.table_id),
    recordId: row.record_id === null ? null : Number(row.record_id),
    timestamp: row.created_at,
    previousState: parseState(row.previous_state),
    newState: parseState(row.new_state),
    userId: row.actor_id,
    revertOf: row.revert_of === null ? null : Number(row.revert_of),
  };
}

/**
 * recordChanges appends changes to the history. Pass the transaction of the change itself, so that the
 * history commits or rolls back with it.
 */
export async function recordChanges(
  trx: Kysely<SystemDatabase>,
  dialect: SqlDialect,
  changes: ChangeInput[],
  now = new Date(),
): Promise<void> {
  if (changes.length > 0) await insertChanges(trx, dialect, changes, now.toISOString());
}

/** listHistory returns one page (1-based) of an account's changes, newest first, with the console's pagination. */
export async function listHistory(
  db: Kysely<SystemDatabase>,
  filter: ChangeFilter,
  { page, limit }: { page: number; limit: number },
): Promise<{ data: HistoryChange[]; pagination: Pagination }> {
  const [rows, totalItems] = await Promise.all([
    listChangesPage(db, filter, { limit, offset: (page - 1) * limit }),
    countChanges(db, filter),
  ]);
  const totalPages = Math.max(1, Math.ceil(totalItems / limit));
  return {
    data: rows.map(toHistoryChange),
    pagination: { totalItems, totalPages, currentPage: page, hasNext: page < totalPages, hasPrevious: page > 1 },
  };
}
