import type { TableResponse } from '@basalt/shared';
import { ACTIVITY_PAGE_SIZE, activityEntrySchema, paginationSchema } from '@basalt/shared';
import { keepPreviousData, useQueries, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { countRecords } from '@/features/records/records.api';
import { recordKeys } from '@/features/records/records.keys';
import { jsonQuery } from '@/lib/api';
import { getSupabase } from '@/lib/supabase';
import { dashboardKeys } from './dashboard.keys';

// The dashboard's calls: GET /api/stats and GET /api/activity?page&limit=10.

/** statsSchema is GET /api/stats: the three cards. */
export const statsSchema = z.object({
  activities: z.number(),
  apiCalls: z.number().default(0),
  storageSize: z.string(),
  filesSize: z.string().default('0 MB'),
  totalSize: z.string().optional(),
  tables: z.number(),
});

/** activityPageSchema is one page of GET /api/activity. */
export const activityPageSchema = z.object({ data: z.array(activityEntrySchema), pagination: paginationSchema });

/** useStatsQuery loads the stat cards. */
export function useStatsQuery() {
  return useQuery({ queryKey: dashboardKeys.stats, queryFn: jsonQuery(statsSchema) });
}

/** useActivityQuery loads one page of recent activity, keeping the previous page on screen while paging. */
export function useActivityQuery(page: number) {
  return useQuery({
    queryKey: dashboardKeys.activity(page, ACTIVITY_PAGE_SIZE),
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
