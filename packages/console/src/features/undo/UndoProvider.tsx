import { type ReactNode, useCallback, useMemo, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { UndoContext, type UndoContextValue } from './undo-context';
import { popUndoEntry, pushUndoEntry, type UndoEntry } from './undo-history';

/**
 * UndoProvider keeps the actions that can be undone (recorded by the features that do them, with how to undo
 * them); Undo runs the newest one and returns to the page it was done on. Navigation alone records nothing.
 */
export function UndoProvider({ children }: { children: ReactNode }) {
  const location = useLocation();
  const navigate = useNavigate();
  const [entries, setEntries] = useState<UndoEntry[]>([]);
  const currentPath = `${location.pathname}${location.search}`;

  const undo = useCallback(() => {
    const { entry, rest } = popUndoEntry(entries);
    if (!entry) return;
    setEntries(rest);
    if (entry.path !== currentPath) navigate(entry.path);
    entry.run?.();
  }, [entries, currentPath, navigate]);

  const record = useCallback((action: string, path: string, run?: () => unknown) => {
    setEntries((h) => pushUndoEntry(h, { action, path, timestamp: Date.now(), ...(run ? { run } : {}) }));
  }, []);

  const value = useMemo<UndoContextValue>(
    () => ({ entries, canUndo: entries.length > 0, undo, record }),
    [entries, undo, record],
  );
  return <UndoContext.Provider value={value}>{children}</UndoContext.Provider>;
}
