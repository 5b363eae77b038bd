import {
  accountImportReportSchema,
  type Backup,
  type BackupScheduleInput,
  backupListSchema,
  backupScheduleSchema,
  backupSchema,
  type CreateBackupInput,
} from '@basalt/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiJson, apiRequest, jsonQuery } from '@/lib/api';
import { errorMessage } from '@/lib/api-errors';
import { showToast } from '@/lib/toast';
import { backupKeys } from './backups.keys';

// Instance backups (Settings › Backups, administrators) and the account's own export and import.

// While a backup is written or restored the list is read again every 2 s, to show its progress.
const POLL_MS = 2000;

const busy = (backups: Backup[] | undefined) =>
  backups?.some((b) => b.status === 'IN_PROGRESS' || b.restore?.status === 'IN_PROGRESS') ?? false;

/** useBackupsQuery lists the instance's backups, polling while one is under way. */
export function useBackupsQuery() {
  return useQuery<BackupList, Error, Backup[]>({
    queryKey: backupKeys.list,
    queryFn: jsonQuery(backupListSchema),
    select: (data) => data.backups,
    refetchInterval: (query) => (busy(query.state.data?.backups) ? POLL_MS : false),
  });
}

type BackupList = z.infer<typeof backupListSchema>;

/** useBackupScheduleQuery reads the schedule and retention. */
export function useBackupScheduleQuery() {
  return useQuery({ queryKey: backupKeys.schedule, queryFn: jsonQuery(backupScheduleSchema) });
}

function failed(title: string) {
  return (error: unknown) => showToast({ title, description: errorMessage(error, title), variant: 'destructive' });
}

/** useCreateBackupMutation starts a backup now. */
export function useCreateBackupMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateBackupInput) => apiJson(backupSchema, 'POST', '/api/backups', input),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: backupKeys.list });
      showToast({ title: 'Backup Started', description: 'The backup runs in the background.', variant: 'success' });
    },
    onError: failed('Backup Failed'),
  });
}

/** useSaveScheduleMutation saves the schedule and retention. */
export function useSaveScheduleMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: BackupScheduleInput) => apiJson(backupScheduleSchema, 'PUT', '/api/backups/schedule', input),
    onSuccess: (schedule) => {
      queryClient.setQueryData(backupKeys.schedule, schedule);
      showToast({
        title: 'Schedule Saved',
        description: 'Scheduled backups follow the new schedule.',
        variant: 'success',
      });
    },
    onError: failed('Schedule Not Saved'),
  });
}

/** useRestoreBackupMutation starts restoring a backup (checked by the server first). */
export function useRestoreBackupMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (backup: Backup) => apiJson(backupSchema, 'POST', `/api/backups/${backup.id}/restore`),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: backupKeys.list }),
    onError: failed('Restore Refused'),
  });
}

/** useDeleteBackupMutation deletes a backup and its archive. */
export function useDeleteBackupMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (backup: Backup) => apiRequest('DELETE', `/api/backups/${backup.id}`),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: backupKeys.list });
      showToast({ title: 'Backup Deleted', description: 'The archive was removed.', variant: 'success' });
    },
    onError: failed('Delete Failed'),
  });
}

/** useUploadBackupMutation sends an archive to list it as a backup. */
export function useUploadBackupMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (file: File) =>
      apiJson(backupSchema, 'POST', `/api/backups/upload?name=${encodeURIComponent(file.name.slice(0, 100))}`, file, {
        timeoutMs: 60 * 60_000,
      }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: backupKeys.list });
      showToast({ title: 'Archive Uploaded', description: 'It can be restored from the list.', variant: 'success' });
    },
    onError: failed('Upload Refused'),
  });
}

/** saveDownload fetches a file from the API and hands it to the browser as a download. */
export async function saveDownload(path: string, fileName: string): Promise<void> {
  const response = await apiRequest('GET', path, undefined, { timeoutMs: 60 * 60_000 });
  const disposition = response.headers.get('content-disposition') ?? '';
  const named = /filename="([^"]+)"/.exec(disposition)?.[1] ?? fileName;
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = named;
  link.click();
  URL.revokeObjectURL(url);
}

/** useAccountImportMutation imports an account archive (or reports what it would do). */
export function useAccountImportMutation() {
  return useMutation({
    mutationFn: ({ file, dryRun }: { file: File; dryRun: boolean }) =>
      apiJson(accountImportReportSchema, 'POST', `/api/account/import?dryRun=${dryRun}`, file, {
        timeoutMs: 60 * 60_000,
      }),
    onError: failed('Import Refused'),
  });
}
