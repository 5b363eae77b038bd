import { LOG_LIMITS, logEntrySchema, logsPageSchema } from '@basalt/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { jsonQuery } from '@/lib/api';
import { logKeys } from './logs.keys';

// System logs: GET /api/logs answers the settings viewer's
// array (the newest 500 entries), polled every 30 s; GET /api/logs?page&limit=20&level&search answers one page of
// /logs, filtered by the server (the whole log, not only the newest entries).
// The viewer filters in the browser, so a new level or search shows at once and the export matches the list.

/** LOG_POLL_MS is how often the settings viewer reloads. */
export const LOG_POLL_MS = 30_000;
/** LOGS_PAGE_SIZE is the /logs page size. */
export const LOGS_PAGE_SIZE = LOG_LIMITS.pageSize;

/** useRecentLogsQuery loads the settings viewer's entries and reloads them every 30 s. */
export function useRecentLogsQuery() {
  return useQuery({
    queryKey: logKeys.recent,
    queryFn: jsonQuery(z.array(logEntrySchema)),
    refetchInterval: LOG_POLL_MS,
  });
}

/** LogsPageFilters are /logs's filters, which the server applies (GET /api/logs?level&search). */
export interface LogsPageFilters {
  level?: string;
  search?: string;
}

/**
 * useLogsPageQuery loads one page of /logs, filtered by the server, keeping the previous page on screen while the
 * next loads.
 */
export function useLogsPageQuery(page: number, filters: LogsPageFilters = {}) {
  return useQuery({
    queryKey: logKeys.page(page, LOGS_PAGE_SIZE, filters),
    queryFn: jsonQuery(logsPageSchema),
    placeholderData: keepPreviousData,
  });
}
