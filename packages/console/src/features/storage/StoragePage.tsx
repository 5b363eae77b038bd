import { ChevronRight, Folder, FolderOpen, HardDrive, Link2, Plus, Trash2, Upload } from 'lucide-react';
import { type FormEvent, type ReactNode, useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Checkbox } from '@/components/ui/checkbox';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { EmptyState, LoadErrorState } from '@/components/ui/empty-state';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { PageHeader } from '@/components/ui/page-header';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { errorMessage } from '@/lib/api-errors';
import { showToast } from '@/lib/toast';
import {
  signedUrlOf,
  useBucketsQuery,
  useCreateBucketMutation,
  useDeleteBucketMutation,
  useObjectsQuery,
  useRemoveMutation,
  useUploadMutation,
} from './storage.queries';

// /storage: the account's buckets (create public or private, delete), and a file browser for the chosen one:
// folders with a breadcrumb, upload by picker, copy a signed URL (an hour), delete with confirmation.

const sizeOf = (bytes: unknown) => {
  const n = Number(bytes ?? 0);
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
};

function NewBucketForm({ onDone }: { onDone: () => void }) {
  const create = useCreateBucketMutation();
  const [name, setName] = useState('');
  const [isPublic, setPublic] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate({ name: name.trim(), isPublic }, { onSuccess: onDone });
  };
  return (
    <form onSubmit={submit} aria-label="New bucket" className="grid gap-3 border-b p-3 sm:flex sm:items-end">
      <div className="grid gap-1.5">
        <Label htmlFor="bucket-name">Bucket name</Label>
        <Input id="bucket-name" value={name} onChange={(e) => setName(e.target.value)} placeholder="avatars" />
      </div>
      <div className="flex items-center gap-2 sm:pb-2">
        <Checkbox id="bucket-public" checked={isPublic} onCheckedChange={(v) => setPublic(v === true)} />
        <Label htmlFor="bucket-public">Public (anyone with the link can read)</Label>
      </div>
      <Button type="submit" disabled={!name.trim() || create.isPending}>
        Create bucket
      </Button>
    </form>
  );
}

function Files({ bucket }: { bucket: string }) {
  const [prefix, setPrefix] = useState('');
  const objects = useObjectsQuery(bucket, prefix);
  const upload = useUploadMutation(bucket, prefix);
  const remove = useRemoveMutation(bucket);
  const [deleting, setDeleting] = useState<string | null>(null);
  const parts = prefix ? prefix.split('/') : [];
  const copyLink = async (path: string) => {
    try {
      await navigator.clipboard.writeText(await signedUrlOf(bucket, path));
      showToast({ title: 'Signed URL copied', description: 'It works for one hour.', variant: 'success' });
    } catch (error) {
      showToast({ title: 'Could not sign the URL', description: errorMessage(error), variant: 'destructive' });
    }
  };
  let body: ReactNode;
  if (objects.isError) {
    body = <LoadErrorState title="Failed to list files" error={objects.error} onRetry={() => void objects.refetch()} />;
  } else if (objects.data && objects.data.length === 0) {
    body = <EmptyState icon={FolderOpen} title="This folder is empty. Upload a file to get started." />;
  } else {
    body = (
      <Table aria-label="Files">
        <TableHeader>
          <TableRow className="hover:bg-transparent">
            <TableHead>Name</TableHead>
            <TableHead className="hidden sm:table-cell">Size</TableHead>
            <TableHead className="hidden md:table-cell">Type</TableHead>
            <TableHead className="w-24 text-right">
              <span className="sr-only">Actions</span>
            </TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {(objects.data ?? []).map((entry) => {
            const path = prefix ? `${prefix}/${entry.name}` : entry.name;
            const meta = (entry.metadata ?? {}) as Record<string, unknown>;
            return (
              <TableRow key={`${entry.id ?? 'folder'}:${entry.name}`}>
                <TableCell className="max-w-40 [overflow-wrap:anywhere] sm:max-w-none">
                  {entry.id === null ? (
                    <button
                      type="button"
                      className="flex items-center gap-2 font-medium"
                      onClick={() => setPrefix(path)}
                    >
                      <Folder aria-hidden className="size-4 text-primary" />
                      {entry.name}
                    </button>
                  ) : (
                    <span className="font-mono text-xs">{entry.name}</span>
                  )}
                </TableCell>
                <TableCell className="hidden sm:table-cell">{entry.id === null ? '—' : sizeOf(meta.size)}</TableCell>
                <TableCell className="hidden text-muted-foreground md:table-cell">
                  {String(meta.mimetype ?? '')}
                </TableCell>
                <TableCell className="text-right">
                  {entry.id !== null && (
                    <div className="flex justify-end gap-1">
                      <Button
                        variant="ghost"
                        size="icon-sm"
                        aria-label={`Copy a signed URL of ${entry.name}`}
                        onClick={() => void copyLink(path)}
                      >
                        <Link2 />
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
    <Card className="overflow-hidden">
      <div className="flex flex-wrap items-center justify-between gap-2 border-b p-3">
        <nav aria-label="Folder" className="flex flex-wrap items-center gap-1 text-sm">
          <button type="button" className="font-medium" onClick={() => setPrefix('')}>
            {bucket}
          </button>
          {parts.map((part, index) => (
            <span key={parts.slice(0, index + 1).join('/')} className="flex items-center gap-1">
              <ChevronRight aria-hidden className="size-3 text-muted-foreground" />
              <button type="button" onClick={() => setPrefix(parts.slice(0, index + 1).join('/'))}>
                {part}
              </button>
            </span>
          ))}
        </nav>
        <Button asChild variant="outline" size="sm" disabled={upload.isPending}>
          <label>
            <Upload />
            {upload.isPending ? 'Uploading…' : 'Upload files'}
            <input
              type="file"
              multiple
              className="sr-only"
              aria-label="Upload files"
              onChange={(e) => {
                const files = Array.from(e.target.files ?? []);
                if (files.length > 0) upload.mutate(files);
                e.target.value = '';
              }}
            />
          </label>
        </Button>
      </div>
      {body}
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

/** StoragePage manages the account's buckets and their files. */
export function StoragePage() {
  const buckets = useBucketsQuery();
  const removeBucket = useDeleteBucketMutation();
  const [creating, setCreating] = useState(false);
  const [chosen, setChosen] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<string | null>(null);
  const selected = chosen ?? buckets.data?.[0]?.name ?? null;

  let list: ReactNode;
  if (buckets.isError) {
    list = (
      <LoadErrorState title="Failed to fetch buckets" error={buckets.error} onRetry={() => void buckets.refetch()} />
    );
  } else if (buckets.data && buckets.data.length === 0) {
    list = <EmptyState icon={HardDrive} title="No buckets yet. Create one to store files." />;
  } else {
    list = (
      <ul aria-label="Buckets" className="divide-y">
        {(buckets.data ?? []).map((bucket) => (
          <li key={bucket.name} className="flex items-center justify-between gap-2 p-3">
            <button
              type="button"
              aria-current={bucket.name === selected ? 'true' : undefined}
              className="flex items-center gap-2 text-left font-medium aria-[current=true]:text-primary"
              onClick={() => setChosen(bucket.name)}
            >
              <HardDrive aria-hidden className="size-4" />
              {bucket.name}
            </button>
            <span className="flex items-center gap-1">
              <Badge variant={bucket.public ? 'warning' : 'default'}>{bucket.public ? 'Public' : 'Private'}</Badge>
              <Button
                variant="ghost"
                size="icon-sm"
                aria-label={`Delete bucket ${bucket.name}`}
                className="text-destructive hover:text-destructive"
                onClick={() => setDeleting(bucket.name)}
              >
                <Trash2 />
              </Button>
            </span>
          </li>
        ))}
      </ul>
    );
  }

  return (
    <div className="grid gap-6">
      <PageHeader
        title="Storage"
        description="Buckets of files your apps read and write with supabase.storage."
        actions={
          <Button onClick={() => setCreating((open) => !open)}>
            <Plus />
            New Bucket
          </Button>
        }
      />
      <div className="grid gap-6 lg:grid-cols-[18rem_1fr]">
        <Card className="self-start overflow-hidden">
          {creating && <NewBucketForm onDone={() => setCreating(false)} />}
          {list}
        </Card>
        {selected && <Files key={selected} bucket={selected} />}
      </div>
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete bucket ${deleting ?? ''}?`}
        description="Every file in it is deleted too. This cannot be undone."
        onConfirm={() => {
          if (deleting) removeBucket.mutate(deleting);
          if (deleting === selected) setChosen(null);
        }}
        onClose={() => setDeleting(null)}
      />
    </div>
  );
}
