import { normalizeAccess, type RestorePreview, sameAccess, type TableAccess } from '@basalt/shared';
import type { Db } from '../../db/database.js';
import { ApiError } from '../../http/errors.js';
import type { Actor } from '../../lib/actor/actor.js';
import { accessOf } from '../tables/table-access.js';
import { changeTable, findTableById, lockTable } from '../tables/tables.service.js';
import { parseState } from './history.service.js';
import { findFirstSchemaChangeAfter } from './history.store.js';
import { RevertConflict, stateObject } from './history-conflicts.js';

// A restore and the table's access rules (issue 35): a restore reverts rule changes like any other change, and
// an app's users suddenly seeing nothing is the surprise. So the restore's preview says what the rules become,
// and a restore may keep today's rules (`keepAccess`): once every later change is reverted, today's rules are
// set again as one more recorded change, inside the same transaction (undoing the restore undoes it too).

/**
 * accessAfterChange is the table's rules just after change `after` (0: before every kept change): the "before"
 * state of the oldest definition change after it, or today's when its definition has not changed since. null
 * when the table did not exist then. A change saved before tables had rules names none: today's are kept.
 */
async function accessAfterChange(
  db: Db,
  actor: Actor,
  tableId: number,
  after: number,
  current: TableAccess | null,
): Promise<TableAccess | null> {
  const change = await findFirstSchemaChangeAfter(db.kysely, actor.accountId, tableId, after);
  if (!change) return current;
  if (change.change_type === 'SCHEMA_CREATE') return null;
  const before = stateObject(parseState(change.previous_state));
  const definition = change.change_type === 'SCHEMA_DELETE' ? stateObject(before.table) : before;
  return definition.access === undefined ? current : normalizeAccess(definition.access);
}

/** restorePreviewOf tells what restoring one of the actor's tables to just after change `after` does to its rules. */
export async function restorePreviewOf(
  db: Db,
  actor: Actor,
  tableId: number,
  after: number | null,
): Promise<RestorePreview> {
  const table = await findTableById(db, actor, tableId);
  const current = table ? accessOf(table) : null;
  const restored = await accessAfterChange(db, actor, tableId, after ?? 0, current);
  const changes = current !== null && restored !== null ? !sameAccess(current, restored) : current !== restored;
  return { tableId, changeId: after, access: { current, restored, changes } };
}

/**
 * keepAccessIn sets `todays` rules again on the restored table, inside the restore's transaction (nothing when
 * the table no longer exists or already has them). Rules naming an owner column the restored table lacks are a
 * conflict: the restore is refused with 409 and nothing changes.
 */
export async function keepAccessIn(scope: Db, actor: Actor, tableId: number, todays: TableAccess): Promise<void> {
  const table = await lockTable(scope, actor, tableId);
  if (!table || sameAccess(accessOf(table), todays)) return;
  try {
    await changeTable(scope, actor, tableId, { access: todays });
  } catch (error) {
    if (error instanceof ApiError && error.status === 400) {
      throw new RevertConflict(
        'column_missing',
        `today's access rules use the owner column "${todays.ownerColumn ?? ''}", which the table does not have at this version; restore without keeping today's rules`,
      );
    }
    throw error;
  }
}
