import { type ReactNode, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { UndoContext, type UndoContextValue } from './undo-context';
import { popUndoEntry, pushUndoEntry, type UndoEntry } from './undo-history';

/** UndoProvider records every in-app navigation (the page left behind) so Undo can return to it. */
export function UndoProvider({ children }: { children: ReactNode }) {
  const location = useLocation();
  const navigate = useNavigate();
  const [entries, setEntries] = useState<UndoEntry[]>([]);
  const currentPath = `${location.pathname}${location.search}`;
  const previousPath = useRef<string | null>(null);
  // The navigation an undo itself causes must not become a new entry.
  const undoTarget = useRef<string | null>(null);

  useEffect(() => {
    const left = previousPath.current;
    previousPath.current = currentPath;
    if (left === null || left === currentPath) return;
    if (undoTarget.current === currentPath) {
      undoTarget.current = null;
      return;
    }
    setEntries((h) => pushUndoEntry(h, { action: 'navigate', path: left, timestamp: Date.now() }));
  }, [currentPath]);

  const undo = useCallback(() => {
    const { entry, rest } = popUndoEntry(entries);
    if (!entry) return;
    setEntries(rest);
    if (entry.path !== currentPath) {
      undoTarget.current = entry.path;
      navigate(entry.path);
    }
  }, [entries, currentPath, navigate]);

  const record = useCallback((action: string, path: string) => {
    setEntries((h) => pushUndoEntry(h, { action, path, timestamp: Date.now() }));
  }, []);

  const value = useMemo<UndoContextValue>(
    () => ({ entries, canUndo: entries.length > 0, undo, record }),
    [entries, undo, record],
  );
  return <UndoContext.Provider value={value}>{children}</UndoContext.Provider>;
}
