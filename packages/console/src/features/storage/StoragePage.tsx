import { Eraser, HardDrive, Plus, Settings2, Trash2 } from 'lucide-react';
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
import { type BucketInfo, BucketSettingsDialog, DeleteBucketDialog, LimitFields, limitsOf } from './StorageDialogs';
import { Files } from './StorageFiles';
import { BucketRulesCard } from './StorageRules';
import { useBucketsQuery, useCreateBucketMutation, useEmptyBucketMutation } from './storage.queries';
import { bucketAccessOf } from './storage-rules';

// /storage: the account's buckets (create public or private with limits, settings, empty, delete once its name is
// typed), the chosen one's access rules in plain words (StorageRules.tsx), and a file browser for it
// (StorageFiles.tsx).

function NewBucketForm({ onDone }: { onDone: () => void }) {
  const create = useCreateBucketMutation();
  const [name, setName] = useState('');
  const [isPublic, setPublic] = useState(false);
  const [limit, setLimit] = useState('');
  const [types, setTypes] = useState('');
  const { limitError, typesError, fileSizeLimit, allowedMimeTypes } = limitsOf(limit, types);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (limitError || typesError) return;
    create.mutate({ name: name.trim(), isPublic, fileSizeLimit, allowedMimeTypes }, { onSuccess: onDone });
  };
  return (
    <form onSubmit={submit} aria-label="New bucket" noValidate className="grid gap-3 border-b p-3">
      <div className="grid gap-1.5">
        <Label htmlFor="bucket-name">Bucket name</Label>
        <Input id="bucket-name" value={name} onChange={(e) => setName(e.target.value)} placeholder="avatars" />
      </div>
      <div className="flex items-center gap-2">
        <Checkbox id="bucket-public" checked={isPublic} onCheckedChange={(v) => setPublic(v === true)} />
        <Label htmlFor="bucket-public">Public (anyone with the link can read)</Label>
      </div>
      <LimitFields idPrefix="bucket" limit={limit} types={types} onLimit={setLimit} onTypes={setTypes} />
      <Button type="submit" disabled={!name.trim() || Boolean(limitError || typesError) || create.isPending}>
        Create bucket
      </Button>
    </form>
  );
}

/** StoragePage manages the account's buckets and their files. */
export function StoragePage() {
  const buckets = useBucketsQuery();
  const [editing, setEditing] = useState<BucketInfo | null>(null);
  const [creating, setCreating] = useState(false);
  const [chosen, setChosen] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<string | null>(null);
  const [emptying, setEmptying] = useState<string | null>(null);
  const empty = useEmptyBucketMutation();
  const selected = chosen ?? buckets.data?.[0]?.name ?? null;
  // supabase-js's Bucket type does not name Basalt's `access`; the server answers it with every bucket.
  const chosenBucket = buckets.data?.find((bucket) => bucket.name === selected) as
    | ({ access?: unknown } & NonNullable<typeof buckets.data>[number])
    | undefined;

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
                aria-label={`Settings of bucket ${bucket.name}`}
                onClick={() =>
                  setEditing({
                    name: bucket.name,
                    public: bucket.public,
                    file_size_limit: bucket.file_size_limit ?? null,
                    allowed_mime_types: bucket.allowed_mime_types ?? null,
                  })
                }
              >
                <Settings2 />
              </Button>
              <Button
                variant="ghost"
                size="icon-sm"
                aria-label={`Empty bucket ${bucket.name}`}
                onClick={() => setEmptying(bucket.name)}
              >
                <Eraser />
              </Button>
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
        <div className="grid min-w-0 gap-6 self-start">
          <Card className="overflow-hidden">
            {creating && <NewBucketForm onDone={() => setCreating(false)} />}
            {list}
          </Card>
          {chosenBucket && (
            <BucketRulesCard
              key={chosenBucket.name}
              bucket={{
                name: chosenBucket.name,
                public: chosenBucket.public,
                access: bucketAccessOf(chosenBucket.access),
              }}
            />
          )}
        </div>
        {selected && <Files key={selected} bucket={selected} isPublic={chosenBucket?.public ?? false} />}
      </div>
      <BucketSettingsDialog bucket={editing} onClose={() => setEditing(null)} />
      <ConfirmDialog
        open={emptying !== null}
        title={`Empty ${emptying ?? 'bucket'}?`}
        description="Every file in it is deleted, and links to them stop working; the bucket and its rules stay."
        confirmLabel="Empty bucket"
        onConfirm={() => emptying && empty.mutate(emptying)}
        onClose={() => setEmptying(null)}
      />
      <DeleteBucketDialog
        name={deleting}
        onClose={() => setDeleting(null)}
        onDeleted={() => {
          if (deleting === selected) setChosen(null);
        }}
      />
    </div>
  );
}
