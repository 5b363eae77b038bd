import type { RestoreOptions, RestorePreview, RestoreResult, RevertResult } from '@basalt/shared';
import type { Db } from '../../db/database.js';
import { notFound } from '../../http/errors.js';
import type { Actor } from '../../lib/actor/actor.js';
import { assertCan } from '../records/records.service.js';
import { accessOf } from '../tables/table-access.js';
import { lockTable, toTableResponse } from '../tables/tables.service.js';
import { toHistoryChange } from './history.service.js';
import { findChangeById, findRevertOf, latestChangeId, listChangeLinks, listChangesBetween } from './history.store.js';
import { RevertConflict, restoreRefused, revertRefused } from './history-conflicts.js';
import { type RevertScope, revertIn } from './history-revert.js';
import { keepAccessIn, restorePreviewOf } from './restore-access.js';

// Revert and restore: the transaction boundary of history-revert.ts.
// A revert undoes one change; a restore returns a table to the state just after one change by reverting every
// later change of that table, newest first, in ONE transaction: all of them or none. Each revert is recorded
// (revert_of names what it undid), so a revert can be reverted and a restore undone by restoring to the
// change that was latest before it (undoChangeId). Change events go out once the transaction has committed.

// A restore reads the changes it reverts this many at a time (a SCHEMA_DELETE carries a whole table).
const RESTORE_PAGE = 100;

const changeNotFound = () => notFound('Change not found', 'change_not_found');

// Runs reverts in one transaction; their events go out once it has committed (the scope's afterCommit).
async function inRevertTransaction<T>(db: Db, actor: Actor, run: (scope: RevertScope) => Promise<T>): Promise<T> {
  try {
    return await db.transaction((scope) => run({ db: scope, actor }));
  } catch (error) {
    // Two reverts of the same deletion at once: the second meets the table the first brought back.
    if (db.dialect.userTables.describeError(error)?.kind === 'unique') {
      throw new RevertConflict('concurrent_change', 'the table was changed at the same time; please try again');
    }
    throw error;
  }
}

async function tableNow(scope: RevertScope, tableId: number) {
  const table = await lockTable(scope.db, scope.actor, tableId);
  return table ? toTableResponse(table) : null;
}

/**
 * revertChange undoes one of the actor's changes (404 for an unknown one or another account's) and returns
 * the change it recorded; a later change that conflicts refuses it with 409 and nothing changes.
 */
export async function revertChange(db: Db, actor: Actor, changeId: number): Promise<RevertResult> {
  const change = Number.isSafeInteger(changeId) ? await findChangeById(db.kysely, actor.accountId, changeId) : null;
  if (!change) throw changeNotFound();
  const tableId = Number(change.table_id);
  try {
    return await inRevertTransaction(db, actor, async (scope) => {
      await revertIn(scope, change);
      // Not the table's latest change: a cascade's children in the same table (a tree) are reverted after it.
      const recorded = await findRevertOf(scope.db.kysely, actor.accountId, changeId);
      if (!recorded) throw new Error('revertChange: the revert was not recorded');
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
    throw revertRefused(changeId, (await alreadyReverted(db, actor, changeId)) ?? error);
  }
}

// A change whose revert is in effect (not reverted in turn) conflicts with that revert: say so plainly.
async function alreadyReverted(db: Db, actor: Actor, changeId: number): Promise<RevertConflict | null> {
  const revert = await findRevertOf(db.kysely, actor.accountId, changeId);
  if (!revert || (await findRevertOf(db.kysely, actor.accountId, Number(revert.id)))) return null;
  return new RevertConflict('already_reverted', `it was already reverted by change #${revert.id}`);
}

/**
 * undonePairs finds the changes after `after` that cancel out: a change and the revert of it that directly
 * follows it once the pairs inside them are taken away (like matched brackets). Reverting both would only
 * reinstate and undo the same thing again, so a restore skips them. Without this, restoring to a checkpoint a
 * second time would revert the first restore's reverts one by one and write twice as many changes, and so on:
 * history and the restore's time would double with each restore.
 */
async function undonePairs(db: Db, accountId: string, tableId: number, after: number): Promise<Set<number>> {
  const open: number[] = [];
  const undone = new Set<number>();
  for (const link of await listChangeLinks(db.kysely, accountId, tableId, after)) {
    const last = open.at(-1);
    if (last !== undefined && link.revertOf === last) {
      open.pop();
      undone.add(last);
      undone.add(link.id);
    } else {
      open.push(link.id);
    }
  }
  return undone;
}

/**
 * restoreTable returns one of the actor's tables to the state just after change `afterChangeId` (null: before
 * every change history still holds) by reverting each later change of the table, newest first, in one
 * transaction. Restoring to the latest change changes nothing. `keepAccess` sets today's access rules again
 * afterwards (restore-access.ts).
 */
export async function restoreTable(
  db: Db,
  actor: Actor,
  tableId: number,
  afterChangeId: number | null,
  message = 'Version restored',
  { keepAccess = false }: RestoreOptions = {},
): Promise<RestoreResult> {
  try {
    return await inRevertTransaction(db, actor, async (scope) => {
      // Locked first, so that no write slips in between the list of changes and their reverts.
      const table = await lockTable(scope.db, actor, tableId);
      // A project member restores only a table it reaches, and only with a role that may (DEVELOPER and up).
      if (actor.memberId !== undefined) {
        if (!table) throw changeNotFound();
        assertCan(actor, 'schema', table);
      }
      const todaysAccess = table ? accessOf(table) : null;
      const latest = await latestChangeId(scope.db.kysely, actor.accountId, tableId);
      const undone = await undonePairs(scope.db, actor.accountId, tableId, afterChangeId ?? 0);
      let before = (latest ?? 0) + 1;
      let reverted = 0;
      // Changes a cascade's revert undid already (the children of a delete in the same table).
      const done = new Set<number>();
      for (;;) {
        const page = await listChangesBetween(scope.db.kysely, actor.accountId, tableId, {
          after: afterChangeId ?? 0,
          before,
          limit: RESTORE_PAGE,
        });
        for (const change of page) {
          if (undone.has(Number(change.id)) || done.has(Number(change.id))) continue;
          try {
            for (const id of await revertIn(scope, change, { after: afterChangeId ?? 0 })) done.add(id);
          } catch (error) {
            throw error instanceof RevertConflict ? restoreRefused(error, change) : error;
          }
          reverted++;
        }
        const oldest = page.at(-1);
        if (!oldest || page.length < RESTORE_PAGE) break;
        before = Number(oldest.id);
      }
      if (keepAccess && todaysAccess && reverted > 0) await keepAccessIn(scope.db, actor, tableId, todaysAccess);
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

/** restoreToChange restores the table of one of the actor's changes to the state just after it. */
export async function restoreToChange(
  db: Db,
  actor: Actor,
  changeId: number,
  options: RestoreOptions = {},
): Promise<RestoreResult> {
  const change = await changeToRestore(db, actor, changeId);
  return restoreTable(db, actor, Number(change.table_id), changeId, 'Version restored', options);
}

/** restoreToChangePreview tells what restoring to one of the actor's changes does to its table's access rules. */
export async function restoreToChangePreview(db: Db, actor: Actor, changeId: number): Promise<RestorePreview> {
  const change = await changeToRestore(db, actor, changeId);
  return restorePreviewOf(db, actor, Number(change.table_id), changeId);
}

async function changeToRestore(db: Db, actor: Actor, changeId: number) {
  const change = Number.isSafeInteger(changeId) ? await findChangeById(db.kysely, actor.accountId, changeId) : null;
  if (!change) throw changeNotFound();
  return change;
}
