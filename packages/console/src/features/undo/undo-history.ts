// Undo history: the last 10 actions that can be undone, newest last. Moving between pages is not one of them
// (issue 35: an Undo button appeared after plain navigation, with nothing to undo).

/** UndoEntry is one undoable step: what happened, the page it happened on, when, and how to undo it. */
export interface UndoEntry {
  action: string;
  path: string;
  timestamp: number;
  /** run undoes the action (a revert through History); without it, Undo only returns to the page. */
  run?: () => unknown;
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
