import type { HistoryChange } from '@basalt/shared';

// Which SQL functions were deleted and not brought back, read from their history entries (newest first).

/** DeletedFunction is a deleted function: its id, its name and the entry whose revert brings it back. */
export interface DeletedFunction {
  id: number;
  name: string;
  deletion: HistoryChange;
}

/**
 * deletedFunctions lists the functions whose latest entry is their deletion, newest first, leaving out any id
 * that is defined again (`liveIds`: the list may be fresher than the history page).
 */
export function deletedFunctions(changes: readonly HistoryChange[], liveIds: ReadonlySet<number>): DeletedFunction[] {
  const seen = new Set<number>();
  const deleted: DeletedFunction[] = [];
  for (const change of [...changes].sort((a, b) => b.id - a.id)) {
    if (change.tableId >= 0 || seen.has(change.tableId)) continue;
    seen.add(change.tableId);
    const id = -change.tableId;
    if (change.changeType === 'FUNCTION_DELETE' && !liveIds.has(id)) {
      deleted.push({ id, name: change.tableName, deletion: change });
    }
  }
  return deleted;
}
