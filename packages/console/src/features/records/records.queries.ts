import type { RecordRow, TableResponse } from '@basalt/shared';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { refreshAfterRecordWrite } from '@/features/query-refresh';
import { errorMessage } from '@/lib/api-errors';
import { showToast } from '@/lib/toast';
import {
  createRecord,
  deleteRecord,
  fetchRecordsPage,
  type RecordPayload,
  type RecordsSort,
  type TableRef,
  updateRecord,
} from './records.api';
import { recordKeys } from './records.keys';

/** useRecordsPageQuery loads one page of a table's records; the previous page stays while the next loads. */
export function useRecordsPageQuery(
  table: TableRef | undefined,
  page: number,
  pageSize: number,
  sort: RecordsSort | null = null,
) {
  return useQuery({
    queryKey: recordKeys.page(table?.id ?? 0, page, pageSize, sort),
    queryFn: ({ signal }) => fetchRecordsPage(table ?? { id: 0, name: '' }, { page, pageSize, sort }, signal),
    enabled: table !== undefined,
    placeholderData: keepPreviousData,
  });
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
    mutationFn: (payload: RecordPayload) => createRecord(table, payload),
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
    mutationFn: ({ id, payload }: { id: number; payload: RecordPayload }) => updateRecord(table, id, payload),
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
    mutationFn: (record: RecordRow) => deleteRecord(table, record.id),
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
