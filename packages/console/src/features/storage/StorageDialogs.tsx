import { type FormEvent, useState } from 'react';
import { Checkbox } from '@/components/ui/checkbox';
import { DialogForm, FormDialog } from '@/components/ui/form-dialog';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { useDeleteBucketMutation, useMoveMutation, useUpdateBucketMutation } from './storage.queries';

// The Storage page's dialogs: a bucket's settings (public, largest file, allowed types), deleting a bucket only
// once its name is typed, and moving or renaming a file.

const MB = 1024 * 1024;

/** BucketInfo is what the dialogs know of a bucket. */
export interface BucketInfo {
  name: string;
  public: boolean;
  file_size_limit: number | null;
  allowed_mime_types: string[] | null;
}

/** BucketSettingsDialog edits a bucket's public flag, size limit and allowed MIME types. */
export function BucketSettingsDialog({ bucket, onClose }: { bucket: BucketInfo | null; onClose: () => void }) {
  return (
    <FormDialog
      open={bucket !== null}
      onOpenChange={(open) => !open && onClose()}
      title={`Settings of ${bucket?.name ?? ''}`}
      description="Who can read its files by link, and what it accepts."
    >
      {bucket && <BucketSettingsForm bucket={bucket} onClose={onClose} />}
    </FormDialog>
  );
}

/**
 * limitsOf reads a bucket's typed limits: the largest file in MB (empty: the instance's) and the allowed types
 * (comma- or space-separated; empty: any), with what is wrong with them.
 */
export function limitsOf(limit: string, types: string) {
  const limitError =
    limit.trim() !== '' && !(Number(limit) > 0 && Number.isFinite(Number(limit)))
      ? 'Enter a size in MB above 0'
      : undefined;
  const typeList = types
    .split(/[\s,]+/)
    .map((type) => type.trim())
    .filter(Boolean);
  const badType = typeList.find((type) => !/^[\w.+-]+\/([\w.+-]+|\*)$/.test(type));
  return {
    limitError,
    typesError: badType ? `${badType} is not a MIME type such as image/png or image/*` : undefined,
    fileSizeLimit: limit.trim() === '' ? null : Math.round(Number(limit) * MB),
    allowedMimeTypes: typeList.length > 0 ? typeList : null,
  };
}

/** LimitFields are the inputs of a bucket's largest file and allowed types. */
export function LimitFields({
  idPrefix,
  limit,
  types,
  onLimit,
  onTypes,
}: {
  idPrefix: string;
  limit: string;
  types: string;
  onLimit: (value: string) => void;
  onTypes: (value: string) => void;
}) {
  const { limitError, typesError } = limitsOf(limit, types);
  return (
    <>
      <FormField
        id={`${idPrefix}-limit`}
        label="Largest file (MB)"
        error={limitError}
        hint={<p className="text-xs text-muted-foreground">Empty: the instance's limit.</p>}
      >
        <Input id={`${idPrefix}-limit`} inputMode="decimal" value={limit} onChange={(e) => onLimit(e.target.value)} />
      </FormField>
      <FormField
        id={`${idPrefix}-types`}
        label="Allowed file types"
        error={typesError}
        hint={
          <p className="text-xs text-muted-foreground">
            Comma-separated, such as image/*, application/pdf. Empty: any type.
          </p>
        }
      >
        <Input id={`${idPrefix}-types`} value={types} onChange={(e) => onTypes(e.target.value)} />
      </FormField>
    </>
  );
}

function BucketSettingsForm({ bucket, onClose }: { bucket: BucketInfo; onClose: () => void }) {
  const update = useUpdateBucketMutation(bucket.name);
  const [isPublic, setPublic] = useState(bucket.public);
  const [limit, setLimit] = useState(bucket.file_size_limit ? String(+(bucket.file_size_limit / MB).toFixed(3)) : '');
  const [types, setTypes] = useState((bucket.allowed_mime_types ?? []).join(', '));
  const { limitError, typesError, fileSizeLimit, allowedMimeTypes } = limitsOf(limit, types);
  const submit = (_event: FormEvent) => {
    if (limitError || typesError) return;
    update.mutate({ isPublic, fileSizeLimit, allowedMimeTypes }, { onSuccess: onClose });
  };
  return (
    <DialogForm
      aria-label="Bucket settings"
      onSubmit={submit}
      onCancel={onClose}
      submitLabel="Save"
      pendingLabel="Saving…"
      pending={update.isPending}
      submitDisabled={Boolean(limitError || typesError)}
    >
      <div className="flex items-center gap-2">
        <Checkbox id="settings-public" checked={isPublic} onCheckedChange={(v) => setPublic(v === true)} />
        <Label htmlFor="settings-public">Public (anyone with the link can read)</Label>
      </div>
      <LimitFields idPrefix="settings" limit={limit} types={types} onLimit={setLimit} onTypes={setTypes} />
    </DialogForm>
  );
}

/** DeleteBucketDialog deletes a bucket and its files once its name is typed. */
export function DeleteBucketDialog({
  name,
  onClose,
  onDeleted,
}: {
  name: string | null;
  onClose: () => void;
  onDeleted: () => void;
}) {
  return (
    <FormDialog
      open={name !== null}
      onOpenChange={(open) => !open && onClose()}
      title={`Delete bucket ${name ?? ''}?`}
      description="Every file in it is deleted too, and links to them stop working. This cannot be undone."
    >
      {name && <DeleteBucketForm name={name} onClose={onClose} onDeleted={onDeleted} />}
    </FormDialog>
  );
}

function DeleteBucketForm({ name, onClose, onDeleted }: { name: string; onClose: () => void; onDeleted: () => void }) {
  const remove = useDeleteBucketMutation();
  const [typed, setTyped] = useState('');
  return (
    <DialogForm
      aria-label="Delete bucket"
      destructive
      onSubmit={() => {
        if (typed !== name) return;
        remove.mutate(name, {
          onSuccess: () => {
            onDeleted();
            onClose();
          },
        });
      }}
      onCancel={onClose}
      submitLabel="Delete bucket"
      pendingLabel="Deleting…"
      pending={remove.isPending}
      submitDisabled={typed !== name}
    >
      <FormField id="delete-bucket-confirm" label={`Type ${name} to confirm`}>
        <Input id="delete-bucket-confirm" autoComplete="off" value={typed} onChange={(e) => setTyped(e.target.value)} />
      </FormField>
    </DialogForm>
  );
}

/** MoveDialog moves or renames a file within its bucket (a new path with folders moves it). */
export function MoveDialog({ bucket, path, onClose }: { bucket: string; path: string | null; onClose: () => void }) {
  return (
    <FormDialog
      open={path !== null}
      onOpenChange={(open) => !open && onClose()}
      title="Move or rename"
      description="Give the file a new name; a path with folders (such as archive/2024/report.pdf) moves it."
    >
      {path && <MoveForm bucket={bucket} path={path} onClose={onClose} />}
    </FormDialog>
  );
}

function MoveForm({ bucket, path, onClose }: { bucket: string; path: string; onClose: () => void }) {
  const move = useMoveMutation(bucket);
  const [to, setTo] = useState(path);
  const target = to.trim().replace(/^\/+/, '');
  const error = target === '' || target.endsWith('/') ? 'Enter a file name' : undefined;
  return (
    <DialogForm
      aria-label="Move file"
      onSubmit={() => {
        if (error || target === path) return onClose();
        move.mutate({ from: path, to: target }, { onSuccess: onClose });
      }}
      onCancel={onClose}
      submitLabel="Move"
      pendingLabel="Moving…"
      pending={move.isPending}
      submitDisabled={Boolean(error)}
    >
      <FormField id="move-to" label="New path" error={error}>
        <Input id="move-to" value={to} onChange={(e) => setTo(e.target.value)} />
      </FormField>
    </DialogForm>
  );
}
