import type { Pagination } from '@basalt/shared';
import type { Db } from '../../db/database.js';
import { appUserNamesOf } from '../apps/apps.service.js';
import { type ChangeFilter, type ChangeRow, countChanges, listChangesPage } from './history.store.js';

/** HistoryChange is one change as the console's History tab shows it. */
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
  /** The app's user who made the change through the app (features/apps), else null. */
  appUser?: { id: string; name: string } | null;
  /** The change this one reverted (a revert or a restore wrote it); null for any other change. */
  revertOf: number | null;
}

/** DELETED_APP_USER names an app user who made a change and was deleted since. */
export const DELETED_APP_USER = 'a deleted user';

/**
 * withAppUsers names the app users among the changes' actors: a change made by the account names the account's
 * id; any other actor is one of its app's users (history outlives them: a deleted one is "a deleted user").
 */
async function withAppUsers(
  names: (ids: string[]) => Promise<Map<string, string>>,
  accountId: string,
  changes: HistoryChange[],
): Promise<HistoryChange[]> {
  const ids = changes.map((change) => change.userId).filter((id): id is string => id !== null && id !== accountId);
  if (ids.length === 0) return changes.map((change) => ({ ...change, appUser: null }));
  const known = await names(ids);
  return changes.map((change) => ({
    ...change,
    appUser:
      change.userId === null || change.userId === accountId
        ? null
        : { id: change.userId, name: known.get(change.userId) ?? DELETED_APP_USER },
  }));
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
 * listHistory returns one page (1-based) of an account's changes, newest first, with the console's pagination and
 * the names of the app users who made some of them.
 */
export async function listHistory(
  db: Db,
  filter: ChangeFilter,
  { page, limit }: { page: number; limit: number },
): Promise<{ data: HistoryChange[]; pagination: Pagination }> {
  const [rows, totalItems] = await Promise.all([
    listChangesPage(db.kysely, filter, { limit, offset: (page - 1) * limit }),
    countChanges(db.kysely, filter),
  ]);
  const totalPages = Math.max(1, Math.ceil(totalItems / limit));
  const names = (ids: string[]) => appUserNamesOf(db, filter.accountId, ids);
  return {
    data: await withAppUsers(names, filter.accountId, rows.map(toHistoryChange)),
    pagination: { totalItems, totalPages, currentPage: page, hasNext: page < totalPages, hasPrevious: page > 1 },
  };
}
