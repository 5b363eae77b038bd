import type { Db } from '../../db/database.js';
import { addToHistoryCount } from '../../db/history-counts.js';
import { type Actor, actorIdOf } from '../../lib/actor/actor.js';
import { type ActivityAction, recordActivity } from '../activity/activity.service.js';
import { type CascadeMark, type ChangeType, insertChanges } from './journal.store.js';

// The one recorder of what changed: every write of records or table definitions stores, in its own transaction,
// one change_history entry per change (what features/history lists, reverts and restores), adds them to the kept
// history count (db/history-counts.ts), and one activity entry per kind of change (the dashboard's feed). Records
// and tables call it; history reads what it wrote.

export type { CascadeMark, ChangeType } from './journal.store.js';

/** JournalTable is the table the changes are about: its owner, id and name at the time. */
export interface JournalTable {
  accountId: string;
  id: number;
  name: string;
}

/** Change is one change of a table: a record's (recordId set) or its definition's (recordId null). */
export interface Change {
  changeType: ChangeType;
  recordId: number | null;
  previousState: unknown;
  newState: unknown;
  cascade?: CascadeMark | null;
}

/** JournalOptions say when the changes happened and, for a revert or restore, which change they undo. */
export interface JournalOptions {
  now: Date;
  revertOf?: number | null;
  /**
   * deferred: nothing reads these entries back before the change commits (a record write), so they may travel
   * with the transaction's next statement (Db.defer) instead of making round trips of their own.
   */
  deferred?: boolean;
}

const ACTION_OF: Record<ChangeType, ActivityAction> = {
  RECORD_CREATE: 'CREATE',
  RECORD_UPDATE: 'UPDATE',
  RECORD_DELETE: 'DELETE',
  SCHEMA_CREATE: 'CREATE',
  SCHEMA_UPDATE: 'UPDATE',
  SCHEMA_DELETE: 'DELETE',
  FUNCTION_CREATE: 'CREATE',
  FUNCTION_UPDATE: 'UPDATE',
  FUNCTION_DELETE: 'DELETE',
};

/**
 * journal stores one table's changes in history, in order, and their activity entries: per kind of record
 * change one entry on `table.<name>` (with the count when several), per definition change one on `tables`.
 * Call it with the scope of the change itself.
 */
export async function journal(
  db: Db,
  actor: Actor,
  table: JournalTable,
  changes: readonly Change[],
  { now, revertOf = null, deferred = false }: JournalOptions,
): Promise<void> {
  if (changes.length === 0) return;
  const actorId = actorIdOf(actor);
  const context = {
    accountId: table.accountId,
    tableId: table.id,
    tableName: table.name,
    actorId,
    createdAt: now.toISOString(),
    revertOf,
  };
  await insertChanges(deferred ? db.defer : db.run, db.dialect, context, changes);
  await addToHistoryCount(db, { accountId: table.accountId, tableId: table.id }, changes.length, { deferred });
  // Who acted, beside the table in the activity feed: an app's caller (the end user and the app, or the app's
  // signed-out visitor), or a project member acting on another account's table.
  const by: { by?: { endUserId: string | null; app: string }; actorId?: string } = {};
  if (actor.app && actor.app.role !== 'service_role') {
    by.by = { endUserId: actor.endUser?.id ?? null, app: actor.app.ref };
  }
  if (actor.memberId !== undefined) by.actorId = actorId;
  const recordCounts = new Map<ChangeType, number>();
  for (const { changeType, recordId } of changes) {
    if (recordId === null) {
      await recordActivity(
        db,
        {
          accountId: table.accountId,
          action: ACTION_OF[changeType],
          resource: 'tables',
          details: { name: table.name, ...by },
        },
        now,
        { deferred },
      );
    } else {
      recordCounts.set(changeType, (recordCounts.get(changeType) ?? 0) + 1);
    }
  }
  for (const [changeType, count] of recordCounts) {
    await recordActivity(
      db,
      {
        accountId: table.accountId,
        action: ACTION_OF[changeType],
        resource: `table.${table.name}`,
        details: { tableName: table.name, ...(count === 1 ? {} : { count }), ...by },
      },
      now,
      { deferred },
    );
  }
}
