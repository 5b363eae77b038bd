import type { HistoryPagination } from '@basalt/shared';
import type { Db } from '../../db/database.js';
import { readHistoryCount } from '../../db/history-counts.js';
import { appUserNamesOf } from '../apps/apps.service.js';
import { type ChangeFilter, type ChangeRow, listChangesPage } from './history.store.js';

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
 * listHistory returns one page of an account's changes, newest first, with the console's pagination and the names
 * of the app users who made some of them. A page is either numbered (1-based: `page`) or the changes older than
 * change `before`: the console follows `nextBefore` from page to page, a range read however deep it goes, where a
 * numbered page walks past every change above it. The total is the kept count (db/history-counts.ts), exact and
 * without a count over the history.
 */
export async function listHistory(
  db: Db,
  filter: ChangeFilter,
  { page, limit, before }: { page?: number | undefined; limit: number; before?: number | undefined },
): Promise<{ data: HistoryChange[]; pagination: HistoryPagination }> {
  const pageNumber = page ?? 1;
  // One more than the page: whether another follows, without the count (a cursor page knows no page number).
  const [rows, totalItems] = await Promise.all([
    listChangesPage(db.kysely, filter, { limit: limit + 1, offset: before ? 0 : (pageNumber - 1) * limit, before }),
    readHistoryCount(db.kysely, filter),
  ]);
  const hasNext = rows.length > limit;
  const changes = rows.slice(0, limit).map(toHistoryChange);
  const totalPages = Math.max(1, Math.ceil(totalItems / limit));
  const names = (ids: string[]) => appUserNamesOf(db, filter.accountId, ids);
  return {
    data: await withAppUsers(names, filter.accountId, changes),
    pagination: {
      totalItems,
      totalPages,
      currentPage: before ? null : pageNumber,
      hasNext,
      // A cursor names the last change of the page before it.
      hasPrevious: before ? true : pageNumber > 1,
      nextBefore: hasNext ? (changes.at(-1)?.id ?? null) : null,
    },
  };
}
