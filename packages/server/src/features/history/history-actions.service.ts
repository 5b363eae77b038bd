import type { RestoreResult, RevertResult } from '@basalt/shared';
import type { Db } from '../../db/database.js';
import { notFound } from '../../http/errors.js';
import { recordsInTransaction } from '../records/records-in-transaction.js';
import { tableCacheOf } from '../tables/table-cache.js';
import { toTableResponse } from '../tables/table-definition.js';
import { lockTableIn, type TableCaller } from '../tables/tables.service.js';
import { toHistoryChange } from './history.service.js';
import { findChangeById, findLatestChange, findRevertOf, latestChangeId, listChangesBetween } from './history.store.js';
import { RevertConflict, restoreRefused, revertRefused } from './history-conflicts.js';
import { type RevertScope, revertIn } from './history-revert.js';

// Revert and restore (spec console-management §4 "History"): the transaction boundary of history-revert.ts.
// A revert undoes one change; a restore returns a table to the state just after one change by reverting every
// later change of that table, newest first, in ONE transaction: all of them or none. Each revert is recorded
// (revert_of names what it undid), so a revert can be reverted and a restore undone by restoring to the
// change that was latest before it (undoChangeId). Change events go out and cached definitions are dropped
// once the transaction has ended.

// A restore reads the changes it reverts this many at a time (a SCHEMA_DELETE carries a whole table).
const RESTORE_PAGE = 100;

const changeNotFound = () => notFound('Change not found', 'change_not_found');

// Runs reverts in one transaction; after it, the record events go out (on commit) and the definitions of the
// tables it touched leave the cache (either way).
async function inRevertTransaction<T>(
  db: Db,
  caller: TableCaller,
  run: (scope: RevertScope) => Promise<T>,
): Promise<T> {
  const touched = new Set<number>();
  try {
    const { result, records } = await db.transaction(async (trx) => {
      const records = recordsInTransaction(db, trx, caller);
      return { result: await run({ db, trx, caller, records, touched }), records };
    });
    records.committed();
    return result;
  } catch (error) {
    // Two reverts of the same deletion at once: the second meets the table the first brought back.
    if (db.dialect.userTables.describeError(error)?.kind === 'unique') {
      throw new RevertConflict('concurrent_change', 'the table was changed at the same time; please try again');
    }
    throw error;
  } finally {
    const cache = tableCacheOf(db);
    for (const id of touched) cache.evict(id);
  }
}

async function tableNow(scope: RevertScope, tableId: number) {
  const table = await lockTableIn(scope.trx, scope.db, scope.caller, tableId);
  return table ? toTableResponse(table) : null;
}

/**
 * revertChange undoes one of the caller's changes (404 for an unknown one or another account's) and returns
 * the change it recorded; a later change that conflicts refuses it with 409 and nothing changes.
 */
export async function revertChange(db: Db, caller: TableCaller, changeId: number): Promise<RevertResult> {
  const change = Number.isSafeInteger(changeId) ? await findChangeById(db.kysely, caller.accountId, changeId) : null;
  if (!change) throw changeNotFound();
  const tableId = Number(change.table_id);
  try {
    return await inRevertTransaction(db, caller, async (scope) => {
      await revertIn(scope, change);
      const recorded = await findLatestChange(scope.trx, caller.accountId, tableId);
      if (!recorded || Number(recorded.revert_of) !== changeId)
        throw new Error('revertChange: the revert was not recorded');
      return {
        success: true as const,
        message: 'Change reverted',
        revertedChangeId: changeId,
        change: toHistoryChange(recorded),
        table: await tableNow(scope, tableId),
      };
    });
  } catch (error) {
    if (!(error instanceof RevertConflict)) throw error;
    throw revertRefused(changeId, (await alreadyReverted(db, caller, changeId)) ?? error);
  }
}

// A change whose revert is in effect (not reverted in turn) conflicts with that revert: say so plainly.
async function alreadyReverted(db: Db, caller: TableCaller, changeId: number): Promise<RevertConflict | null> {
  const revert = await findRevertOf(db.kysely, caller.accountId, changeId);
  if (!revert || (await findRevertOf(db.kysely, caller.accountId, Number(revert.id)))) return null;
  return new RevertConflict('already_reverted', `it was already reverted by change #${revert.id}`);
}

/**
 * restoreTable returns one of the caller's tables to the state just after change `afterChangeId` (null: before
 * every change history still holds) by reverting each later change of the table, newest first, in one
 * transaction. Restoring to the latest change changes nothing.
 */
export async function restoreTable(
  db: Db,
  caller: TableCaller,
  tableId: number,
  afterChangeId: number | null,
  message = 'Version restored',
): Promise<RestoreResult> {
  try {
    return await inRevertTransaction(db, caller, async (scope) => {
      // Locked first, so that no write slips in between the list of changes and their reverts.
      scope.touched.add(tableId);
      await lockTableIn(scope.trx, db, caller, tableId);
      const latest = await latestChangeId(scope.trx, caller.accountId, tableId);
      let before = (latest ?? 0) + 1;
      let reverted = 0;
      for (;;) {
        const page = await listChangesBetween(scope.trx, caller.accountId, tableId, {
          after: afterChangeId ?? 0,
          before,
          limit: RESTORE_PAGE,
        });
        for (const change of page) {
          try {
            await revertIn(scope, change);
          } catch (error) {
            throw error instanceof RevertConflict ? restoreRefused(error, change) : error;
          }
          reverted++;
        }
        const oldest = page.at(-1);
        if (!oldest || page.length < RESTORE_PAGE) break;
        before = Number(oldest.id);
      }
      return {
        success: true as const,
        message,
        tableId,
        changeId: afterChangeId,
        reverted,
        undoChangeId: reverted > 0 ? latest : null,
        table: await tableNow(scope, tableId),
      };
    });
  } catch (error) {
    throw error instanceof RevertConflict ? restoreRefused(error) : error;
  }
}

/** restoreToChange restores the table of one of the caller's changes to the state just after it. */
export async function restoreToChange(db: Db, caller: TableCaller, changeId: number): Promise<RestoreResult> {
  const change = Number.isSafeInteger(changeId) ? await findChangeById(db.kysely, caller.accountId, changeId) : null;
  if (!change) throw changeNotFound();
  return restoreTable(db, caller, Number(change.table_id), changeId);
}
