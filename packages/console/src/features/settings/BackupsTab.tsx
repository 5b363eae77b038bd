import type { Backup } from '@basalt/shared';
import { Archive, Download, History, Plus, Trash2, Upload } from 'lucide-react';
import { type ReactNode, useRef, useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { EmptyState, LoadErrorState } from '@/components/ui/empty-state';
import { formatDateTime } from '@/components/ui/relative-time';
import { SkeletonTableRows } from '@/components/ui/skeleton-table-rows';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { errorMessage } from '@/lib/api-errors';
import { showToast } from '@/lib/toast';
import { BackupScheduleCard } from './BackupScheduleCard';
import { saveDownload, useBackupsQuery, useDeleteBackupMutation, useUploadBackupMutation } from './backups.queries';
import { CreateBackupDialog } from './CreateBackupDialog';
import { RestoreBackupDialog } from './RestoreBackupDialog';

const SKELETON_CELLS = [
  { skeleton: 'h-4 w-32' },
  { skeleton: 'h-5 w-20' },
  { skeleton: 'h-4 w-14', cell: 'hidden md:table-cell' },
  { skeleton: 'h-4 w-12', cell: 'hidden md:table-cell' },
  { skeleton: 'h-4 w-28', cell: 'hidden sm:table-cell' },
  { skeleton: 'ml-auto h-7 w-24' },
];

/** formatBytes writes a size in B, KB, MB or GB. */
export function formatBytes(bytes: number | null): string {
  if (bytes === null) return '—';
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`;
}

function formatDuration(ms: number | null): string {
  if (ms === null) return '—';
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

const ORIGINS: Record<string, string> = {
  manual: 'Manual',
  scheduled: 'Scheduled',
  'pre-restore': 'Before a restore',
  uploaded: 'Uploaded',
  cli: 'Command line',
  found: 'Found on disk',
};

/** BackupStatusBadge shows a backup's state, with its progress while it runs. */
export function BackupStatusBadge({ backup }: { backup: Backup }) {
  if (backup.restore?.status === 'IN_PROGRESS') return <Badge variant="warning">Restoring</Badge>;
  if (backup.status === 'IN_PROGRESS') {
    return <Badge variant="warning">In progress · {formatBytes(backup.progress.bytes)}</Badge>;
  }
  if (backup.status === 'FAILED') return <Badge variant="destructive">Failed</Badge>;
  return <Badge>Completed</Badge>;
}

/**
 * BackupsTab is Settings › Backups, for administrators: every backup of the instance with its state, size and
 * duration; create one now (with or without stored files), upload an archive, download, restore (after typing a
 * confirmation) and delete; and the schedule with its retention.
 */
export function BackupsTab() {
  const backups = useBackupsQuery();
  const upload = useUploadBackupMutation();
  const remove = useDeleteBackupMutation();
  const [creating, setCreating] = useState(false);
  const [restoring, setRestoring] = useState<Backup | null>(null);
  const [deleting, setDeleting] = useState<Backup | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const list = backups.data ?? [];

  const download = (backup: Backup) =>
    saveDownload(`/api/backups/${backup.id}/download`, backup.filePath ?? 'backup.tar.gz').catch((error: unknown) =>
      showToast({
        title: 'Download Failed',
        description: errorMessage(error, 'Download failed'),
        variant: 'destructive',
      }),
    );

  let body: ReactNode;
  if (backups.isError && !backups.data) {
    body = (
      <LoadErrorState title="Failed to fetch backups" error={backups.error} onRetry={() => void backups.refetch()} />
    );
  } else if (backups.data && list.length === 0) {
    body = (
      <EmptyState
        icon={Archive}
        title="No backups yet"
        description="Create one now, or let the schedule below take one."
      />
    );
  } else {
    body = (
      <Table aria-label="Backups">
        <TableHeader>
          <TableRow className="hover:bg-transparent">
            <TableHead>Name</TableHead>
            <TableHead>Status</TableHead>
            <TableHead className="hidden md:table-cell">Size</TableHead>
            <TableHead className="hidden md:table-cell">Duration</TableHead>
            <TableHead className="hidden sm:table-cell">Created</TableHead>
            <TableHead className="text-right">Actions</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {!backups.data && <SkeletonTableRows rows={3} cells={SKELETON_CELLS} />}
          {list.map((backup) => (
            <TableRow key={backup.id}>
              <TableCell className="max-w-56">
                <div className="truncate font-medium">{backup.name}</div>
                <div className="text-xs text-muted-foreground">
                  {ORIGINS[backup.origin] ?? backup.origin}
                  {backup.format ? ` · ${backup.format}` : ''}
                  {backup.includeFiles ? ' · with files' : ''}
                </div>
                {backup.error && <div className="mt-1 text-xs text-destructive">{backup.error}</div>}
                {backup.restore?.status === 'FAILED' && (
                  <div className="mt-1 text-xs text-destructive">Restore failed: {backup.restore.error}</div>
                )}
              </TableCell>
              <TableCell>
                <BackupStatusBadge backup={backup} />
              </TableCell>
              <TableCell className="hidden md:table-cell">{formatBytes(backup.size)}</TableCell>
              <TableCell className="hidden md:table-cell">{formatDuration(backup.durationMs)}</TableCell>
              <TableCell className="hidden text-muted-foreground sm:table-cell">
                {formatDateTime(backup.createdAt)}
              </TableCell>
              <TableCell>
                <div className="flex justify-end gap-1">
                  <Button
                    size="sm"
                    variant="ghost"
                    aria-label={`Download ${backup.name}`}
                    disabled={backup.status !== 'COMPLETED'}
                    onClick={() => void download(backup)}
                  >
                    <Download />
                  </Button>
                  <Button
                    size="sm"
                    variant="ghost"
                    aria-label={`Restore ${backup.name}`}
                    disabled={backup.status !== 'COMPLETED'}
                    onClick={() => setRestoring(backup)}
                  >
                    <History />
                    <span className="hidden lg:inline">Restore</span>
                  </Button>
                  <Button
                    size="sm"
                    variant="ghost"
                    aria-label={`Delete ${backup.name}`}
                    disabled={backup.status === 'IN_PROGRESS' || backup.restore?.status === 'IN_PROGRESS'}
                    onClick={() => setDeleting(backup)}
                  >
                    <Trash2 />
                  </Button>
                </div>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    );
  }

  return (
    <div className="grid grid-cols-1 gap-6">
      <Card className="gap-0 overflow-hidden p-0">
        <CardHeader className="flex flex-wrap items-start justify-between gap-3 border-b p-4 sm:p-6">
          <div className="grid gap-1.5">
            <CardTitle>Backups</CardTitle>
            <CardDescription>
              Archives of the whole instance: its database and, when included, its stored files.
            </CardDescription>
          </div>
          <div className="flex flex-wrap gap-2">
            <input
              ref={fileInput}
              type="file"
              accept=".gz,.tgz,application/gzip"
              className="hidden"
              data-testid="backup-upload-input"
              onChange={(e) => {
                const file = e.target.files?.[0];
                if (file) upload.mutate(file);
                e.target.value = '';
              }}
            />
            <Button variant="outline" disabled={upload.isPending} onClick={() => fileInput.current?.click()}>
              <Upload />
              {upload.isPending ? 'Uploading...' : 'Upload archive'}
            </Button>
            <Button onClick={() => setCreating(true)}>
              <Plus />
              Create backup
            </Button>
          </div>
        </CardHeader>
        {body}
      </Card>
      <BackupScheduleCard />
      <CreateBackupDialog open={creating} onOpenChange={setCreating} />
      <RestoreBackupDialog backup={restoring} onClose={() => setRestoring(null)} />
      <ConfirmDialog
        open={deleting !== null}
        title="Delete this backup?"
        description={`The archive of "${deleting?.name ?? ''}" is removed from the server. This cannot be undone.`}
        onConfirm={() => deleting && remove.mutate(deleting)}
        onClose={() => setDeleting(null)}
      />
    </div>
  );
}
