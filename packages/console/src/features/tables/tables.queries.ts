import { type CreateTableRequest, type TableResponse, tableListSchema, type UpdateTableInput } from '@basalt/shared';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { refreshAfterSchemaChange, refreshAfterTableCreate, refreshAfterTableDelete } from '@/features/query-refresh';
import { jsonQuery } from '@/lib/api';
import { errorMessage, isClientError } from '@/lib/api-errors';
import { getSupabase } from '@/lib/supabase';
import { showToast } from '@/lib/toast';
import {
  AuthRequiredError,
  createTable,
  deleteTable,
  fetchTable,
  fetchTables,
  previewTableChange,
  updateTable,
} from './tables.api';
import { tableKeys } from './tables.keys';

// the table list is cached for 30 s and retried once.
const TABLES_STALE_MS = 30_000;

/** useTablesQuery lists the account's tables. */
export function useTablesQuery() {
  return useQuery({
    queryKey: tableKeys.list,
    queryFn: () => fetchTables(getSupabase()),
    staleTime: TABLES_STALE_MS,
    retry: (failures, error) => !isClientError(error) && failures < 1,
  });
}

/**
 * useApiTablesQuery lists the account's tables with their schemas from GET /api/tables (the docs pages, the
 * project settings' table picker). Every reader of this key goes through here with the one full schema: a reader
 * that cached a narrower shape under the same key broke the others.
 */
export function useApiTablesQuery({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: tableKeys.apiList,
    queryFn: jsonQuery(tableListSchema),
    enabled,
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

const failureToast = (title: string, error: unknown) =>
  showToast({
    title,
    description: errorMessage(error, 'Something went wrong. Please try again.'),
    variant: 'destructive',
  });

/** useCreateTableMutation creates a table (after checking for a session) and says "Table created". */
export function useCreateTableMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateTableRequest) => createTable(getSupabase(), input),
    onSuccess: () => {
      refreshAfterTableCreate(queryClient);
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
      refreshAfterTableDelete(queryClient, table);
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
      refreshAfterSchemaChange(queryClient, table, updated);
      showToast({
        title: 'Table updated',
        description: 'Your changes to the table have been saved.',
        variant: 'success',
      });
    },
    onError: (error) => failureToast('Failed to update table', error),
  });
}

/**
 * useSchemaPreviewQuery asks whether the table's rows allow a schema change (POST …/schema/preview, which changes
 * nothing); idle while `request` is null. `key` is the request's text, which names the check in the cache.
 */
export function useSchemaPreviewQuery(
  table: TableResponse,
  request: Pick<UpdateTableInput, 'schema' | 'renames'> | null,
  key: string | null,
) {
  return useQuery({
    queryKey: tableKeys.schemaPreview(table.id, key, table.updatedAt),
    queryFn: ({ signal }) => previewTableChange(table.id, request ?? {}, signal),
    enabled: request !== null,
    staleTime: 0,
    retry: false,
    placeholderData: keepPreviousData,
  });
}
