import { ChevronRight, FolderOpen, Search, Trash2 } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { EmptyState, LoadErrorState } from '@/components/ui/empty-state';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { MoveDialog } from './StorageDialogs';
import { FileList } from './StorageFileList';
import { PreviewDialog } from './StoragePreview';
import { SignedUrlDialog } from './StorageSignDialog';
import { DropZone, UploadButton, UploadList, useUploads } from './StorageUploads';
import { useRemoveMutation } from './storage.queries';
import { type FileSort, pagesByCursor, useFilesQuery } from './storage-files.queries';

// A bucket's file browser: folders with a breadcrumb, a search by name prefix, four orders (name either way, newest
// or oldest first), a long list that loads the next page as it scrolls (StorageFileList.tsx), uploads by drag and
// drop or picker with progress, and per file: preview, a signed URL for a chosen time, move or rename, delete with
// confirmation; check boxes select files to delete together.

// The orders the browser offers (Supabase's list sorts by name, created_at or updated_at).
const SORTS = {
  'name:asc': { label: 'Name A–Z', sort: { column: 'name', order: 'asc' } },
  'name:desc': { label: 'Name Z–A', sort: { column: 'name', order: 'desc' } },
  'updated_at:desc': { label: 'Newest first', sort: { column: 'updated_at', order: 'desc' } },
  'updated_at:asc': { label: 'Oldest first', sort: { column: 'updated_at', order: 'asc' } },
} satisfies Record<string, { label: string; sort: FileSort }>;

const count = (n: number, one: string, many: string) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** Files browses one bucket. */
export function Files({ bucket, isPublic }: { bucket: string; isPublic: boolean }) {
  const [prefix, setPrefix] = useState('');
  const [search, setSearch] = useState('');
  const [sort, setSort] = useState<keyof typeof SORTS>('name:asc');
  const objects = useFilesQuery(bucket, prefix, search.trim(), SORTS[sort].sort);
  const uploads = useUploads(bucket, prefix);
  const remove = useRemoveMutation(bucket);
  const [deleting, setDeleting] = useState<string[] | null>(null);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [moving, setMoving] = useState<string | null>(null);
  const [signing, setSigning] = useState<string | null>(null);
  const [previewing, setPreviewing] = useState<{ path: string; type: string; size: string } | null>(null);
  const parts = prefix ? prefix.split('/') : [];
  const entries = objects.data?.pages.flatMap((page) => page.entries) ?? [];
  const files = entries.filter((entry) => entry.id !== null).length;
  const folders = entries.length - files;
  const open = (next: string) => {
    setPrefix(next);
    setSearch('');
    setSelected(new Set());
  };
  const select = (paths: string[], on: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      for (const path of paths) {
        if (on) next.add(path);
        else next.delete(path);
      }
      return next;
    });
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
      <FileList
        prefix={prefix}
        entries={entries}
        hasMore={objects.hasNextPage}
        loading={objects.isFetchingNextPage}
        onLoadMore={() => void objects.fetchNextPage()}
        selected={selected}
        onSelect={select}
        actions={{
          open,
          preview: setPreviewing,
          sign: setSigning,
          move: setMoving,
          remove: (path) => setDeleting([path]),
        }}
      />
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
            onChange={(e) => {
              setSearch(e.target.value);
              setSelected(new Set());
            }}
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
      {selected.size > 0 && (
        <div className="flex flex-wrap items-center gap-2 border-b bg-muted/40 px-3 py-2 text-sm">
          <span>{count(selected.size, 'file', 'files')} selected</span>
          <Button
            variant="destructive"
            size="sm"
            disabled={remove.isPending}
            onClick={() => setDeleting([...selected])}
          >
            <Trash2 />
            Delete selected
          </Button>
          <Button variant="ghost" size="sm" onClick={() => setSelected(new Set())}>
            Clear selection
          </Button>
        </div>
      )}
      <DropZone onFiles={uploads.start}>
        {body}
        {objects.data && entries.length > 0 && (
          <div
            role="status"
            aria-label="Files loaded"
            className="flex flex-wrap items-center justify-center gap-x-3 gap-y-1 border-t p-3 text-center text-muted-foreground text-sm"
          >
            <span>
              {count(files, 'file', 'files')}
              {folders > 0 ? ` and ${count(folders, 'folder', 'folders')}` : ''} loaded
              {objects.hasNextPage ? '; scroll for more.' : '. End of list.'}
            </span>
            {objects.hasNextPage && (
              <Button
                variant="outline"
                size="sm"
                disabled={objects.isFetchingNextPage}
                onClick={() => void objects.fetchNextPage()}
              >
                {objects.isFetchingNextPage ? 'Loading…' : 'Load more'}
              </Button>
            )}
            {!pagesByCursor(SORTS[sort].sort) && (
              <span className="basis-full text-xs">
                This order is sorted by the server over the whole folder for every page (up to 100,000 files), so it
                loads slower than Name A–Z on large folders.
              </span>
            )}
          </div>
        )}
      </DropZone>
      <PreviewDialog bucket={bucket} file={previewing} onClose={() => setPreviewing(null)} />
      <MoveDialog bucket={bucket} path={moving} onClose={() => setMoving(null)} />
      <SignedUrlDialog bucket={bucket} isPublic={isPublic} path={signing} onClose={() => setSigning(null)} />
      <ConfirmDialog
        open={deleting !== null}
        title={
          deleting && deleting.length > 1
            ? `Delete ${count(deleting.length, 'file', 'files')}?`
            : `Delete ${deleting?.[0] ?? 'file'}?`
        }
        description={
          deleting && deleting.length > 1
            ? 'The selected files are removed for good; signed URLs to them stop working.'
            : 'The file is removed for good; signed URLs to it stop working.'
        }
        confirmLabel={deleting && deleting.length > 1 ? `Delete ${count(deleting.length, 'file', 'files')}` : 'Delete'}
        onConfirm={() => {
          if (!deleting) return;
          const paths = deleting;
          remove.mutate(paths, { onSuccess: () => select(paths, false) });
        }}
        onClose={() => setDeleting(null)}
      />
    </Card>
  );
}
