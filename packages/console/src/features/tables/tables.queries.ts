import type { CreateTableRequest, TableResponse, UpdateTableInput } from '@basalt/shared';
import { type QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { dashboardKeys } from '@/features/dashboard/dashboard.queries';
import { historyKeys } from '@/features/history/history.queries';
import { recordKeys } from '@/features/records/records.queries';
import { errorMessage, isClientError } from '@/lib/api-errors';
import { getSupabase } from '@/lib/supabase';
import { showToast } from '@/lib/toast';
import { AuthRequiredError, createTable, deleteTable, fetchTable, fetchTables, updateTable } from './tables.api';

// Spec console-core §7: the table list is cached for 30 s and retried once.
const TABLES_STALE_MS = 30_000;

/** tableKeys are the table queries; `apiList` is the docs pages' list (GET /api/tables, spec console-management §7). */
export const tableKeys = {
  list: ['/rest/v1/tables'] as const,
  apiList: ['/api/tables'] as const,
  detail: (id: number) => [`/api/tables/${id}`] as const,
};

/** useTablesQuery lists the account's tables. */
export function useTablesQuery() {
  return useQuery({
    queryKey: tableKeys.list,
    queryFn: () => fetchTables(getSupabase()),
    staleTime: TABLES_STALE_MS,
    retry: (failures, error) => !isClientError(error) && failures < 1,
  });
}

/** useTableQuery loads one table; the list's copy shows at once while it loads. */
export function useTableQuery(id: number) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: tableKeys.detail(id),
    queryFn: ({ signal }) => fetchTable(id, signal),
    enabled: id > 0,
    placeholderData: () => queryClient.getQueryData<TableResponse[]>(tableKeys.list)?.find((t) => t.id === id),
  });
}

// Creating or dropping a table changes the list, the stat cards and the activity.
function refreshAfterTableWrite(queryClient: QueryClient) {
  void queryClient.invalidateQueries({ queryKey: tableKeys.list });
  void queryClient.invalidateQueries({ queryKey: tableKeys.apiList });
  void queryClient.invalidateQueries({ queryKey: dashboardKeys.stats });
  void queryClient.invalidateQueries({ queryKey: dashboardKeys.activityAll });
}

const failureToast = (title: string, error: unknown) =>
  showToast({
    title,
    description: errorMessage(error, 'Something went wrong. Please try again.'),
    variant: 'destructive',
  });

/** useCreateTableMutation creates a table (after checking for a session). */
export function useCreateTableMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateTableRequest) => createTable(getSupabase(), input),
    onSuccess: () => {
      refreshAfterTableWrite(queryClient);
      showToast({
        title: 'Table created',
        description: 'Your new table has been created successfully.',
        variant: 'success',
      });
    },
    onError: (error) => {
      if (error instanceof AuthRequiredError) {
        showToast({
          title: 'Authentication required',
          description: 'Sign in to create a table.',
          variant: 'destructive',
        });
      } else {
        failureToast('Failed to create table', error);
      }
    },
  });
}

/** useDeleteTableMutation drops a table with all its data. */
export function useDeleteTableMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (table: TableResponse) => deleteTable(getSupabase(), table.id),
    onSuccess: (_data, table) => {
      queryClient.setQueryData<TableResponse[]>(tableKeys.list, (list) => list?.filter((t) => t.id !== table.id));
      queryClient.removeQueries({ queryKey: tableKeys.detail(table.id) });
      queryClient.removeQueries({ queryKey: recordKeys.table(table.name) });
      refreshAfterTableWrite(queryClient);
      showToast({
        title: 'Table deleted',
        description: 'The table has been deleted successfully.',
        variant: 'success',
      });
    },
    onError: (error) => failureToast('Failed to delete table', error),
  });
}

/** useUpdateTableMutation saves a schema editor change; a refusal is left to the caller to show in place. */
export function useUpdateTableMutation(table: TableResponse) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: UpdateTableInput) => updateTable(table.id, change),
    // A refusal answers 4xx and would fail again; never retry a schema change.
    retry: false,
    onSuccess: (updated) => {
      queryClient.setQueryData(tableKeys.detail(table.id), updated);
      void queryClient.invalidateQueries({ queryKey: tableKeys.list });
      void queryClient.invalidateQueries({ queryKey: tableKeys.apiList });
      queryClient.removeQueries({ queryKey: recordKeys.table(table.name) });
      void queryClient.invalidateQueries({ queryKey: recordKeys.table(updated.name) });
      void queryClient.invalidateQueries({ queryKey: historyKeys.ofTable(table.id) });
      void queryClient.invalidateQueries({ queryKey: dashboardKeys.stats });
      void queryClient.invalidateQueries({ queryKey: dashboardKeys.activityAll });
      showToast({
        title: 'Table updated',
        description: 'Your changes to the table have been saved.',
        variant: 'success',
      });
    },
    onError: (error) => failureToast('Failed to update table', error),
  });
}
