import {
  type Checkpoint,
  checkpointListSchema,
  checkpointRestoreResultSchema,
  checkpointSchema,
  createCheckpointSchema,
  historyPageSchema,
  restorePreviewSchema,
  restoreResultSchema,
  revertResultSchema,
} from '@basalt/shared';
import {
  keepPreviousData,
  type QueryClient,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import type { z } from 'zod';
import { refreshAfterCheckpointCreate, refreshAfterTimeTravel } from '@/features/query-refresh';
import { useUndoRecorder } from '@/features/undo/undo-context';
import { apiJson, buildQueryUrl, jsonQuery } from '@/lib/api';
import { errorMessage } from '@/lib/api-errors';
import { showToast } from '@/lib/toast';
import { checkpointKeys, historyKeys } from './history.keys';

// History and checkpoints: GET /api/history?tableId&limit&before (newest first, each page the changes older than
// the last one of the page before: a range read at any depth), POST /api/history/{id}/revert, POST /api/history/{id}/restore, GET and POST /api/checkpoints,
// POST /api/checkpoints/{id}/restore ({keepAccess} keeps today's access rules; GET …/restore-preview says
// whether the rules change). A revert or restore rewrites the table, so it refreshes every query
// that shows the table (refreshAfterTimeTravel).

/** HISTORY_PAGE_SIZE is how many changes the Table View shows per page. */
export const HISTORY_PAGE_SIZE = 10;
/** TIMELINE_PAGE_SIZE is how many changes the timeline loads at a time (Load more adds as many again). */
export const TIMELINE_PAGE_SIZE = 50;

const FALLBACK = 'Something went wrong. Please try again.';

/** checkpointFormSchema is the create form: the shared rules for a name (non-blank once trimmed) and description. */
export const checkpointFormSchema = createCheckpointSchema.pick({ name: true, description: true });
/** CheckpointFormInput is what the form holds; CheckpointForm is what it submits. */
export type CheckpointFormInput = z.input<typeof checkpointFormSchema>;
export type CheckpointForm = z.output<typeof checkpointFormSchema>;

/**
 * useTableHistoryQuery loads one page of a table's changes (the Table View): the newest, or those older than
 * change `before` (the page before's `nextBefore`).
 */
export function useTableHistoryQuery(tableId: number, before: number | null) {
  return useQuery({
    queryKey: historyKeys.page(tableId, before, HISTORY_PAGE_SIZE),
    queryFn: ({ signal }) =>
      apiJson(
        historyPageSchema,
        'GET',
        buildQueryUrl('/api/history', { tableId, limit: HISTORY_PAGE_SIZE, before }),
        undefined,
        { signal },
      ),
    enabled: tableId > 0,
    placeholderData: keepPreviousData,
  });
}

/**
 * useHistoryTimelineQuery loads a table's changes newest first, a page at a time. Every change newer than a
 * loaded one is loaded too, so the changes after a selected version are always all on hand.
 */
export function useHistoryTimelineQuery(tableId: number) {
  return useInfiniteQuery({
    queryKey: historyKeys.timeline(tableId, TIMELINE_PAGE_SIZE),
    queryFn: ({ pageParam, signal }) =>
      apiJson(
        historyPageSchema,
        'GET',
        buildQueryUrl('/api/history', { tableId, limit: TIMELINE_PAGE_SIZE, before: pageParam }),
        undefined,
        { signal },
      ),
    initialPageParam: null as number | null,
    getNextPageParam: (last) => last.pagination.nextBefore ?? undefined,
    enabled: tableId > 0,
  });
}

/** useCheckpointsQuery lists a table's checkpoints, newest first. */
export function useCheckpointsQuery(tableId: number) {
  return useQuery({
    queryKey: checkpointKeys.ofTable(tableId),
    queryFn: jsonQuery(checkpointListSchema),
    enabled: tableId > 0,
  });
}

/** countOf says "1 change" or "3 changes". */
export const countOf = (n: number, noun: string) => `${n.toLocaleString()} ${noun}${n === 1 ? '' : 's'}`;

const failureToast = (title: string) => (error: unknown) =>
  showToast({ title, description: errorMessage(error, FALLBACK), variant: 'destructive' });

/** ChangeRef names the change a revert or restore starts from. */
export interface ChangeRef {
  id: number;
  tableId: number;
}

/** KeepAccess asks a restore to keep today's access rules (the preview showed they would change). */
export interface KeepAccess {
  keepAccess?: boolean;
}

const restoreBody = ({ keepAccess }: KeepAccess) => (keepAccess ? { keepAccess: true } : undefined);

const pagePath = () => `${window.location.pathname}${window.location.search}`;

// The Undo of a revert or a restore (features/undo): one more revert or restore, which records no Undo itself.
async function undoTimeTravel(queryClient: QueryClient, change: ChangeRef, how: 'revert' | 'restore') {
  try {
    await apiJson(
      how === 'revert' ? revertResultSchema : restoreResultSchema,
      'POST',
      `/api/history/${change.id}/${how}`,
    );
    refreshAfterTimeTravel(queryClient, change.tableId);
    showToast({ title: 'Undone', description: 'The table is back as it was before.', variant: 'success' });
  } catch (error) {
    failureToast('Error undoing')(error);
  }
}

/** useRevertChangeMutation undoes one change. */
export function useRevertChangeMutation() {
  const queryClient = useQueryClient();
  const recordUndo = useUndoRecorder();
  return useMutation({
    mutationFn: (change: ChangeRef) => apiJson(revertResultSchema, 'POST', `/api/history/${change.id}/revert`),
    // Not idempotent: a retried revert could undo the change's revert.
    retry: false,
    onSuccess: (result, change) => {
      refreshAfterTimeTravel(queryClient, change.tableId);
      showToast({ title: 'Change reverted', description: 'The change has been undone.', variant: 'success' });
      // The revert is a change of its own: reverting it is the Undo.
      const undo = { id: result.change.id, tableId: change.tableId };
      recordUndo('revert change', pagePath(), () => undoTimeTravel(queryClient, undo, 'revert'));
    },
    onError: failureToast('Error reverting change'),
  });
}

/** useRestoreVersionMutation returns a table to a version, reverting every later change. */
export function useRestoreVersionMutation() {
  const queryClient = useQueryClient();
  const recordUndo = useUndoRecorder();
  return useMutation({
    mutationFn: (change: ChangeRef & KeepAccess) =>
      apiJson(restoreResultSchema, 'POST', `/api/history/${change.id}/restore`, restoreBody(change)),
    retry: false,
    onSuccess: (result, change) => {
      refreshAfterTimeTravel(queryClient, change.tableId);
      // Restoring the table's latest change before the restore undoes it (none when nothing changed).
      if (result.undoChangeId !== null) {
        const undo = { id: result.undoChangeId, tableId: change.tableId };
        recordUndo('restore version', pagePath(), () => undoTimeTravel(queryClient, undo, 'restore'));
      }
      showToast({
        title: 'Version restored',
        description: `The table is back to the selected version; ${countOf(result.reverted, 'later change')} reverted.`,
        variant: 'success',
      });
    },
    onError: failureToast('Error restoring version'),
  });
}

/** useCreateCheckpointMutation saves a table's current state under a name. */
export function useCreateCheckpointMutation(tableId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CheckpointForm) => apiJson(checkpointSchema, 'POST', '/api/checkpoints', { tableId, ...input }),
    // A retried create could save the checkpoint twice.
    retry: false,
    onSuccess: (checkpoint) => {
      refreshAfterCheckpointCreate(queryClient, tableId);
      showToast({
        title: 'Checkpoint created',
        description: `"${checkpoint.name}" saves the table as it is now.`,
        variant: 'success',
      });
    },
    onError: failureToast('Error creating checkpoint'),
  });
}

/** useRestoreCheckpointMutation returns a table to a checkpoint; the changes made after it are lost. */
export function useRestoreCheckpointMutation() {
  const queryClient = useQueryClient();
  const recordUndo = useUndoRecorder();
  return useMutation({
    mutationFn: (checkpoint: Checkpoint & KeepAccess) =>
      apiJson(
        checkpointRestoreResultSchema,
        'POST',
        `/api/checkpoints/${checkpoint.id}/restore`,
        restoreBody(checkpoint),
      ),
    retry: false,
    onSuccess: (result, checkpoint) => {
      refreshAfterTimeTravel(queryClient, checkpoint.tableId);
      if (result.undoChangeId !== null) {
        const undo = { id: result.undoChangeId, tableId: checkpoint.tableId };
        recordUndo('restore checkpoint', pagePath(), () => undoTimeTravel(queryClient, undo, 'restore'));
      }
      showToast({
        title: 'Checkpoint restored',
        description: `The table is back to "${checkpoint.name}".`,
        variant: 'success',
      });
    },
    onError: failureToast('Error restoring checkpoint'),
  });
}

/** useRestorePreviewQuery reads what a restore would do (its access rules among it), fresh each time it opens. */
export function useRestorePreviewQuery(previewPath: string) {
  return useQuery({ queryKey: [previewPath], queryFn: jsonQuery(restorePreviewSchema), staleTime: 0 });
}
