import { ChevronRight, Eye, Folder, FolderOpen, Link2, MoveRight, Search, Trash2 } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { EmptyState, LoadErrorState } from '@/components/ui/empty-state';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { MoveDialog } from './StorageDialogs';
import { PreviewDialog } from './StoragePreview';
import { SignedUrlDialog } from './StorageSignDialog';
import { DropZone, UploadButton, UploadList, useUploads } from './StorageUploads';
import { type FileSort, PAGE_SIZE, useObjectsQuery, useRemoveMutation } from './storage.queries';

// A bucket's file browser: folders with a breadcrumb, a search by name prefix, four orders (name either way, newest
// or oldest first), 100 entries a page with "Load more", uploads by drag and drop or picker with progress, and per
// file: preview, a signed URL for a chosen time, move or rename, delete with confirmation.

// The orders the browser offers (Supabase's list sorts by name, created_at or updated_at).
const SORTS = {
  'name:asc': { label: 'Name A–Z', sort: { column: 'name', order: 'asc' } },
  'name:desc': { label: 'Name Z–A', sort: { column: 'name', order: 'desc' } },
  'updated_at:desc': { label: 'Newest first', sort: { column: 'updated_at', order: 'desc' } },
  'updated_at:asc': { label: 'Oldest first', sort: { column: 'updated_at', order: 'asc' } },
} satisfies Record<string, { label: string; sort: FileSort }>;

/** sizeOf writes a byte count for people. */
export const sizeOf = (bytes: unknown) => {
  const n = Number(bytes ?? 0);
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
};

/** Files browses one bucket. */
export function Files({ bucket, isPublic }: { bucket: string; isPublic: boolean }) {
  const [prefix, setPrefix] = useState('');
  const [search, setSearch] = useState('');
  const [sort, setSort] = useState<keyof typeof SORTS>('name:asc');
  const objects = useObjectsQuery(bucket, prefix, search.trim(), SORTS[sort].sort);
  const uploads = useUploads(bucket, prefix);
  const remove = useRemoveMutation(bucket);
  const [deleting, setDeleting] = useState<string | null>(null);
  const [moving, setMoving] = useState<string | null>(null);
  const [signing, setSigning] = useState<string | null>(null);
  const [previewing, setPreviewing] = useState<{ path: string; type: string; size: string } | null>(null);
  const parts = prefix ? prefix.split('/') : [];
  const entries = objects.data?.pages.flat() ?? [];
  const open = (next: string) => {
    setPrefix(next);
    setSearch('');
  };
  let body: ReactNode;
  if (objects.isError) {
    body = <LoadErrorState title="Failed to list files" error={objects.error} onRetry={() => void objects.refetch()} />;
  } else if (objects.data && entries.length === 0) {
    body = search.trim() ? (
      <EmptyState icon={Search} title={`No file or folder here starts with “${search.trim()}”.`} />
    ) : (
      <EmptyState icon={FolderOpen} title="This folder is empty. Drop files here or upload them to get started." />
    );
  } else {
    body = (
      <Table aria-label="Files">
        <TableHeader>
          <TableRow className="hover:bg-transparent">
            <TableHead>Name</TableHead>
            <TableHead className="hidden sm:table-cell">Size</TableHead>
            <TableHead className="hidden md:table-cell">Type</TableHead>
            <TableHead className="w-32 text-right">
              <span className="sr-only">Actions</span>
            </TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {entries.map((entry) => {
            const path = prefix ? `${prefix}/${entry.name}` : entry.name;
            const meta = (entry.metadata ?? {}) as Record<string, unknown>;
            const type = String(meta.mimetype ?? '');
            return (
              <TableRow key={`${entry.id ?? 'folder'}:${entry.name}`}>
                <TableCell className="max-w-40 [overflow-wrap:anywhere] sm:max-w-none">
                  {entry.id === null ? (
                    <button type="button" className="flex items-center gap-2 font-medium" onClick={() => open(path)}>
                      <Folder aria-hidden className="size-4 text-primary" />
                      {entry.name}
                    </button>
                  ) : (
                    <button
                      type="button"
                      className="text-left font-mono text-xs hover:underline"
                      onClick={() => setPreviewing({ path, type, size: sizeOf(meta.size) })}
                    >
                      {entry.name}
                    </button>
                  )}
                </TableCell>
                <TableCell className="hidden sm:table-cell">{entry.id === null ? '—' : sizeOf(meta.size)}</TableCell>
                <TableCell className="hidden text-muted-foreground md:table-cell">{type}</TableCell>
                <TableCell className="text-right">
                  {entry.id !== null && (
                    <div className="flex justify-end gap-0.5">
                      <Button
                        variant="ghost"
                        size="icon-sm"
                        aria-label={`Preview ${entry.name}`}
                        onClick={() => setPreviewing({ path, type, size: sizeOf(meta.size) })}
                      >
                        <Eye />
                      </Button>
                      <Button
                        variant="ghost"
                        size="icon-sm"
                        aria-label={`Copy a signed URL of ${entry.name}`}
                        onClick={() => setSigning(path)}
                      >
                        <Link2 />
                      </Button>
                      <Button
                        variant="ghost"
                        size="icon-sm"
                        aria-label={`Move or rename ${entry.name}`}
                        onClick={() => setMoving(path)}
                      >
                        <MoveRight />
                      </Button>
                      <Button
                        variant="ghost"
                        size="icon-sm"
                        aria-label={`Delete ${entry.name}`}
                        className="text-destructive hover:text-destructive"
                        onClick={() => setDeleting(path)}
                      >
                        <Trash2 />
                      </Button>
                    </div>
                  )}
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    );
  }
  return (
    <Card className="min-w-0 overflow-hidden">
      <div className="flex flex-wrap items-center justify-between gap-2 border-b p-3">
        <nav aria-label="Folder" className="flex min-w-0 flex-wrap items-center gap-1 text-sm">
          <button type="button" className="font-medium" onClick={() => open('')}>
            {bucket}
          </button>
          {parts.map((part, index) => (
            <span key={parts.slice(0, index + 1).join('/')} className="flex items-center gap-1">
              <ChevronRight aria-hidden className="size-3 text-muted-foreground" />
              <button type="button" onClick={() => open(parts.slice(0, index + 1).join('/'))}>
                {part}
              </button>
            </span>
          ))}
        </nav>
        <div className="flex w-full flex-wrap items-center gap-2 sm:w-auto">
          <Input
            type="search"
            aria-label="Search files by name"
            placeholder="Name starts with…"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            className="h-8 w-full min-w-0 sm:w-48"
          />
          <NativeSelect
            aria-label="Sort files"
            value={sort}
            onChange={(e) => setSort(e.target.value as keyof typeof SORTS)}
            className="h-8"
            containerClassName="flex-1 sm:w-auto sm:flex-none"
          >
            {Object.entries(SORTS).map(([value, option]) => (
              <option key={value} value={value}>
                {option.label}
              </option>
            ))}
          </NativeSelect>
          <UploadButton onFiles={uploads.start} busy={uploads.busy} />
        </div>
      </div>
      <UploadList lines={uploads.lines} onClear={uploads.clear} onPause={uploads.pause} />
      <DropZone onFiles={uploads.start}>
        {body}
        {objects.hasNextPage && (
          <div className="flex items-center justify-center gap-3 border-t p-3 text-muted-foreground text-sm">
            <span>{entries.length} shown</span>
            <Button
              variant="outline"
              size="sm"
              disabled={objects.isFetchingNextPage}
              onClick={() => void objects.fetchNextPage()}
            >
              {objects.isFetchingNextPage ? 'Loading…' : `Load ${PAGE_SIZE} more`}
            </Button>
          </div>
        )}
      </DropZone>
      <PreviewDialog bucket={bucket} file={previewing} onClose={() => setPreviewing(null)} />
      <MoveDialog bucket={bucket} path={moving} onClose={() => setMoving(null)} />
      <SignedUrlDialog bucket={bucket} isPublic={isPublic} path={signing} onClose={() => setSigning(null)} />
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete ${deleting ?? 'file'}?`}
        description="The file is removed for good; signed URLs to it stop working."
        onConfirm={() => deleting && remove.mutate(deleting)}
        onClose={() => setDeleting(null)}
      />
    </Card>
  );
}
