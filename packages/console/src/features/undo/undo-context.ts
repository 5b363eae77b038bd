import { createContext, useContext } from 'react';
import type { UndoEntry } from './undo-history';

/** UndoContextValue is what useUndo returns. */
export interface UndoContextValue {
  entries: readonly UndoEntry[];
  canUndo: boolean;
  /** undo removes the newest entry, returns to its path when that is not the current one, and runs its undo. */
  undo: () => void;
  /** record adds an action that can be undone, with the function that undoes it. */
  record: (action: string, path: string, run?: () => unknown) => void;
}

/** UndoContext is provided by UndoProvider. */
export const UndoContext = createContext<UndoContextValue | null>(null);

/** useUndo reads the undo history. */
export function useUndo(): UndoContextValue {
  const value = useContext(UndoContext);
  if (!value) throw new Error('useUndo must be used inside <UndoProvider>');
  return value;
}

const ignore = () => undefined;

/** useUndoRecorder returns record, or a no-op outside an UndoProvider (a feature rendered on its own in a test). */
export function useUndoRecorder(): UndoContextValue['record'] {
  return useContext(UndoContext)?.record ?? ignore;
}
