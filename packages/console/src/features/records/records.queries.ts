import type { RecordRow, TableResponse } from '@basalt/shared';
import { keepPreviousData, type QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { dashboardKeys } from '@/features/dashboard/dashboard.queries';
import { historyKeys } from '@/features/history/history.queries';
import { errorMessage } from '@/lib/api-errors';
import { getSupabase } from '@/lib/supabase';
import { showToast } from '@/lib/toast';
import { createRecord, deleteRecord, fetchRecordsPage, type RecordPayload, updateRecord } from './records.api';

/** recordKeys are the record queries; `table` matches every page and the count of one table. */
export const recordKeys = {
  table: (table: string) => [`/rest/v1/${table}`] as const,
  page: (table: string, page: number, pageSize: number) => [`/rest/v1/${table}`, { page, pageSize }] as const,
  count: (table: string) => [`/rest/v1/${table}`, { count: 'exact' }] as const,
};

/** useRecordsPageQuery loads one page of a table's records; the previous page stays while the next loads. */
export function useRecordsPageQuery(table: string | undefined, page: number, pageSize: number) {
  return useQuery({
    queryKey: recordKeys.page(table ?? '', page, pageSize),
    queryFn: () => fetchRecordsPage(getSupabase(), table ?? '', { page, pageSize }),
    enabled: table !== undefined,
    placeholderData: keepPreviousData,
  });
}

// A record write changes the table's pages and count, its history, and the dashboard's stats and activity.
function refreshAfterRecordWrite(queryClient: QueryClient, table: TableResponse) {
  void queryClient.invalidateQueries({ queryKey: recordKeys.table(table.name) });
  void queryClient.invalidateQueries({ queryKey: historyKeys.ofTable(table.id) });
  void queryClient.invalidateQueries({ queryKey: dashboardKeys.stats });
  void queryClient.invalidateQueries({ queryKey: dashboardKeys.activityAll });
}

const failure = (title: string) => (error: unknown) =>
  showToast({
    title,
    description: errorMessage(error, 'Something went wrong. Please try again.'),
    variant: 'destructive',
  });

/** useCreateRecordMutation adds a record to a table. */
export function useCreateRecordMutation(table: TableResponse) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (payload: RecordPayload) => createRecord(getSupabase(), table.name, payload),
    onSuccess: () => {
      refreshAfterRecordWrite(queryClient, table);
      showToast({
        title: 'Record created',
        description: 'Your new record has been created successfully.',
        variant: 'success',
      });
    },
    onError: failure('Failed to create record'),
  });
}

/** useUpdateRecordMutation changes a record. */
export function useUpdateRecordMutation(table: TableResponse) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, payload }: { id: number; payload: RecordPayload }) =>
      updateRecord(getSupabase(), table.name, id, payload),
    onSuccess: () => {
      refreshAfterRecordWrite(queryClient, table);
      showToast({
        title: 'Record updated',
        description: 'The record has been updated successfully.',
        variant: 'success',
      });
    },
    onError: failure('Failed to update record'),
  });
}

/** useDeleteRecordMutation deletes a record. */
export function useDeleteRecordMutation(table: TableResponse) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (record: RecordRow) => deleteRecord(getSupabase(), table.name, record.id),
    onSuccess: () => {
      refreshAfterRecordWrite(queryClient, table);
      showToast({
        title: 'Record deleted',
        description: 'The record has been deleted successfully.',
        variant: 'success',
      });
    },
    onError: failure('Failed to delete record'),
  });
}
