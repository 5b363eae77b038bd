import type { TableResponse } from '@basalt/shared';
import { ACTIVITY_PAGE_SIZE, activityEntrySchema, paginationSchema } from '@basalt/shared';
import { keepPreviousData, useQueries, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { countRecords } from '@/features/records/records.api';
import { recordKeys } from '@/features/records/records.queries';
import { jsonQuery } from '@/lib/api';
import { getSupabase } from '@/lib/supabase';

// The dashboard's calls (spec console-core §7 "Dashboard"): GET /api/stats and GET /api/activity?page&limit=10.
// Keys start with the API path, so the default query function could fetch them too.

/** statsSchema is GET /api/stats: the three cards. */
export const statsSchema = z.object({ activities: z.number(), storageSize: z.string(), tables: z.number() });

/** activityPageSchema is one page of GET /api/activity. */
export const activityPageSchema = z.object({ data: z.array(activityEntrySchema), pagination: paginationSchema });

/** dashboardKeys are the dashboard's query keys; `activityAll` matches every activity page. */
export const dashboardKeys = {
  stats: ['/api/stats'] as const,
  activityAll: ['/api/activity'] as const,
  activity: (page: number) => ['/api/activity', { page, limit: ACTIVITY_PAGE_SIZE }] as const,
};

/** useStatsQuery loads the stat cards. */
export function useStatsQuery() {
  return useQuery({ queryKey: dashboardKeys.stats, queryFn: jsonQuery(statsSchema) });
}

/** useActivityQuery loads one page of recent activity, keeping the previous page on screen while paging. */
export function useActivityQuery(page: number) {
  return useQuery({
    queryKey: dashboardKeys.activity(page),
    queryFn: jsonQuery(activityPageSchema),
    placeholderData: keepPreviousData,
  });
}

/** useRecordCounts counts the records of each table (one HEAD request per table, cached per table). */
export function useRecordCounts(tables: readonly TableResponse[] | undefined) {
  return useQueries({
    queries: (tables ?? []).map((table) => ({
      queryKey: recordKeys.count(table.name),
      queryFn: () => countRecords(getSupabase(), table.name),
    })),
  });
}
