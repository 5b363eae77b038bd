import type { RecordRow, TableResponse } from '@basalt/shared';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { refreshAfterRecordWrite } from '@/features/query-refresh';
import { errorMessage } from '@/lib/api-errors';
import { showToast } from '@/lib/toast';
import {
  createRecord,
  createRecords,
  deleteRecord,
  deleteRecordsById,
  exportRecordsCsv,
  type FilterParams,
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
  filters: FilterParams = [],
) {
  return useQuery({
    queryKey: recordKeys.page(table?.id ?? 0, page, pageSize, sort, filters),
    queryFn: ({ signal }) => fetchRecordsPage(table ?? { id: 0, name: '' }, { page, pageSize, sort, filters }, signal),
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

/** useDeleteRecordsMutation deletes the selected records of a table in one call. */
export function useDeleteRecordsMutation(table: TableResponse) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (ids: readonly number[]) => deleteRecordsById(table, ids),
    onSuccess: (deleted) => {
      refreshAfterRecordWrite(queryClient, table);
      const n = deleted.length;
      showToast({
        title: n === 1 ? 'Record deleted' : 'Records deleted',
        description: `${n.toLocaleString('en-US')} ${n === 1 ? 'record was' : 'records were'} deleted from ${table.name}.`,
        variant: 'success',
      });
    },
    onError: failure('Failed to delete records'),
  });
}

/** ImportProgress is how far a CSV import has come: records created so far of the total. */
export interface ImportProgress {
  created: number;
  total: number;
}

/**
 * useImportRecordsMutation creates records in parts (each part one transaction), reporting after each; a refused
 * part stops the import there, and the records of the parts before it stay.
 */
export function useImportRecordsMutation(table: TableResponse, onProgress: (progress: ImportProgress) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (parts: RecordPayload[][]) => {
      const total = parts.reduce((sum, part) => sum + part.length, 0);
      let created = 0;
      try {
        for (const part of parts) {
          created += (await createRecords(table, part)).length;
          onProgress({ created, total });
        }
      } finally {
        if (created > 0) refreshAfterRecordWrite(queryClient, table);
      }
      return { created, total };
    },
  });
}

/** useExportRecordsMutation downloads the records the filters select as a CSV file named after the table. */
export function useExportRecordsMutation(table: TableResponse, onFile: (file: Blob) => void) {
  return useMutation({
    mutationFn: (filters: FilterParams) => exportRecordsCsv(table, filters),
    onSuccess: onFile,
    onError: failure('Failed to export records'),
  });
}
