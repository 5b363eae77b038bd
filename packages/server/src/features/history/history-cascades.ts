import type { Db } from '../../db/database.js';
import type { Actor } from '../../lib/actor/actor.js';
import type { ChangeRow } from './history.store.js';
import { listGroupChanges } from './history.store.js';

// A delete that cascaded wrote one history entry per row it took (and per row whose reference it emptied), all
// sharing one change_group, each naming the deleted row that caused it (`caused_by`, record-references.ts). The
// rules ran before the row that caused them was deleted, so every entry beneath a row's delete is older than it.
// Reverting that delete reverts the entries beneath it too, newest first: each parent is back before its
// children, and the reverts mirror the entries in reverse, so a restore later sees each change and its revert as
// a pair (history-actions.service.ts's undonePairs).

const causeKey = (change: ChangeRow) => `${change.table_id}:${change.record_id}`;

/**
 * changesBeneath are the entries a record delete's rules wrote, at any depth, newer than change `after`, newest
 * first; none for any other change.
 */
export async function changesBeneath(
  scope: { db: Db; actor: Actor },
  change: ChangeRow,
  after: number,
): Promise<ChangeRow[]> {
  if (change.change_type !== 'RECORD_DELETE' || change.change_group === null) return [];
  const group = await listGroupChanges(scope.db.kysely, scope.actor.accountId, change.change_group);
  const causedBy = new Map<string, ChangeRow[]>();
  for (const entry of group) {
    if (entry.caused_by === null || Number(entry.id) <= after) continue;
    causedBy.set(entry.caused_by, [...(causedBy.get(entry.caused_by) ?? []), entry]);
  }
  const beneath: ChangeRow[] = [];
  const deletes = [change];
  for (let parent = deletes.pop(); parent; parent = deletes.pop()) {
    for (const child of causedBy.get(causeKey(parent)) ?? []) {
      // Older than its cause, as the rules ran first; a row deleted again later in the group is another row.
      if (Number(child.id) >= Number(parent.id)) continue;
      beneath.push(child);
      if (child.change_type === 'RECORD_DELETE') deletes.push(child);
    }
  }
  return beneath.sort((a, b) => Number(b.id) - Number(a.id));
}
