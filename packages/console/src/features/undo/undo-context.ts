import { createContext, useContext } from 'react';
import type { UndoEntry } from './undo-history';

/** UndoContextValue is what useUndo returns. */
export interface UndoContextValue {
  entries: readonly UndoEntry[];
  canUndo: boolean;
  /** undo removes the newest entry and goes back to its path when that is not the current one. */
  undo: () => void;
  /** record adds an entry for an action other than a navigation. */
  record: (action: string, path: string) => void;
}

/** UndoContext is provided by UndoProvider. */
export const UndoContext = createContext<UndoContextValue | null>(null);

/** useUndo reads the undo history. */
export function useUndo(): UndoContextValue {
  const value = useContext(UndoContext);
  if (!value) throw new Error('useUndo must be used inside <UndoProvider>');
  return value;
}
