// Undo history: the last 10 navigations, newest last.

/** UndoEntry is one undoable step: what happened, the path to return to, and when. */
export interface UndoEntry {
  action: string;
  path: string;
  timestamp: number;
}

/** UNDO_HISTORY_LIMIT is how many entries are kept. */
export const UNDO_HISTORY_LIMIT = 10;

/** pushUndoEntry appends an entry and drops the oldest beyond the limit. */
export function pushUndoEntry(
  history: readonly UndoEntry[],
  entry: UndoEntry,
  limit = UNDO_HISTORY_LIMIT,
): UndoEntry[] {
  return [...history, entry].slice(-limit);
}

/** popUndoEntry removes the newest entry and returns it with the rest. */
export function popUndoEntry(history: readonly UndoEntry[]): { entry: UndoEntry | undefined; rest: UndoEntry[] } {
  return { entry: history.at(-1), rest: history.slice(0, -1) };
}
