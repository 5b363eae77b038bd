import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { refreshAfterRecordWrite } from '@/features/query-refresh';
import { keepConnected, watchTable } from '@/lib/realtime';

// Pages that show a table's data follow it live: a change from another tab, node or API refreshes the queries a
// record write makes stale (its pages, count and history; the dashboard). Changes that arrive close together
// refresh once, REFRESH_AFTER_MS after the first.

/** REFRESH_AFTER_MS gathers a burst of changes into one refresh. */
export const REFRESH_AFTER_MS = 250;

/** useLiveTable refreshes a table's queries when its records change; null follows nothing. */
export function useLiveTable(tableId: number | null): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (tableId === null || tableId < 1) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stop = watchTable(tableId, (change) => {
      if (timer !== undefined) return;
      timer = setTimeout(() => {
        timer = undefined;
        refreshAfterRecordWrite(queryClient, { id: change.tableId, name: change.tableName });
      }, REFRESH_AFTER_MS);
    });
    return () => {
      clearTimeout(timer);
      stop();
    };
  }, [tableId, queryClient]);
}

/** useRealtimeConnection keeps the realtime socket open while it is mounted (the signed-in shell). */
export function useRealtimeConnection(): void {
  useEffect(() => keepConnected(), []);
}
