import type { Checkpoint } from '@basalt/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import { Flag, RotateCcw } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { EmptyState, LoadErrorState } from '@/components/ui/empty-state';
import { FormField, fieldAria } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { formatDateTime, RelativeTime } from '@/components/ui/relative-time';
import { Skeleton } from '@/components/ui/skeleton';
import { Textarea } from '@/components/ui/textarea';
import {
  type CheckpointForm,
  type CheckpointFormInput,
  checkpointFormSchema,
  useCheckpointsQuery,
  useCreateCheckpointMutation,
  useRestoreCheckpointMutation,
} from './history.queries';
import { RestoreAccessNotice } from './RestoreAccessNotice';

// The Checkpoints tab: save the table's current state under a name, and go back to a saved state.

function CreateCheckpointCard({ tableId }: { tableId: number }) {
  const creation = useCreateCheckpointMutation(tableId);
  const form = useForm<CheckpointFormInput, unknown, CheckpointForm>({
    resolver: zodResolver(checkpointFormSchema),
    defaultValues: { name: '', description: '' },
  });
  const { errors } = form.formState;
  // the button stays disabled while the name is blank once trimmed.
  const blank = (form.watch('name') ?? '').trim() === '';
  return (
    <Card>
      <CardHeader>
        <CardTitle>Create Checkpoint</CardTitle>
        <CardDescription>Save the table as it is now, to return to this state later.</CardDescription>
      </CardHeader>
      <CardContent>
        <form
          noValidate
          className="grid gap-4"
          onSubmit={form.handleSubmit((input) => creation.mutate(input, { onSuccess: () => form.reset() }))}
        >
          <FormField id="checkpoint-name" label="Name" error={errors.name?.message}>
            <Input
              {...fieldAria('checkpoint-name', errors.name?.message)}
              placeholder="Before the spring import"
              autoComplete="off"
              {...form.register('name')}
            />
          </FormField>
          <FormField id="checkpoint-description" label="Description (optional)" error={errors.description?.message}>
            <Textarea
              {...fieldAria('checkpoint-description', errors.description?.message)}
              placeholder="What state is this?"
              rows={3}
              {...form.register('description')}
            />
          </FormField>
          <Button type="submit" className="w-full sm:w-fit" disabled={blank || creation.isPending}>
            <Flag />
            {creation.isPending ? 'Creating...' : 'Create Checkpoint'}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}

function CheckpointRow({ checkpoint, onRestore }: { checkpoint: Checkpoint; onRestore: () => void }) {
  return (
    <li aria-label={checkpoint.name} className="flex flex-col gap-3 px-5 py-4 sm:flex-row sm:items-start sm:px-6">
      <div className="grid min-w-0 flex-1 gap-1">
        <span className="font-medium break-words">{checkpoint.name}</span>
        {checkpoint.description && (
          <span className="text-sm break-words text-muted-foreground">{checkpoint.description}</span>
        )}
        <span className="text-xs text-muted-foreground">
          <span title={formatDateTime(checkpoint.createdAt)}>
            Saved <RelativeTime value={checkpoint.createdAt} />
          </span>
          {checkpoint.changeId !== null && <span className="font-mono"> · at change #{checkpoint.changeId}</span>}
        </span>
      </div>
      <Button variant="outline" size="sm" className="w-fit" onClick={onRestore}>
        <RotateCcw />
        Restore
      </Button>
    </li>
  );
}

function CheckpointList({ tableId }: { tableId: number }) {
  const checkpoints = useCheckpointsQuery(tableId);
  const restore = useRestoreCheckpointMutation();
  // The dialog keeps showing its checkpoint while it animates closed.
  const [restoring, setRestoring] = useState<Checkpoint | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [keepAccess, setKeepAccess] = useState(false);

  let body: ReactNode;
  if (checkpoints.isPending) {
    body = (
      <div role="status" aria-label="Loading checkpoints" className="grid gap-3 p-5 sm:p-6">
        <Skeleton className="h-12 w-full" />
        <Skeleton className="h-12 w-full" />
      </div>
    );
  } else if (checkpoints.isError) {
    body = (
      <LoadErrorState
        title="Failed to load checkpoints"
        error={checkpoints.error}
        onRetry={() => void checkpoints.refetch()}
      />
    );
  } else if (checkpoints.data.length === 0) {
    body = (
      <EmptyState
        icon={Flag}
        title="No checkpoints yet"
        description="Create a checkpoint before a risky change, so you can return to it."
      />
    );
  } else {
    body = (
      <ul aria-label="Checkpoints" className="divide-y border-t">
        {checkpoints.data.map((checkpoint) => (
          <CheckpointRow
            key={checkpoint.id}
            checkpoint={checkpoint}
            onRestore={() => {
              setRestoring(checkpoint);
              setKeepAccess(false);
              setConfirming(true);
            }}
          />
        ))}
      </ul>
    );
  }
  return (
    <Card className="overflow-hidden">
      <CardHeader>
        <CardTitle>Saved Checkpoints</CardTitle>
        <CardDescription>Newest first. Restoring one undoes every change made after it.</CardDescription>
      </CardHeader>
      {body}
      <ConfirmDialog
        open={confirming}
        title={`Restore checkpoint "${restoring?.name ?? ''}"?`}
        description="The table returns to the state saved in this checkpoint. Changes made after it will be lost."
        confirmLabel="Restore Checkpoint"
        onConfirm={() => restoring && restore.mutate({ ...restoring, keepAccess })}
        onClose={() => setConfirming(false)}
      >
        {confirming && restoring && (
          <RestoreAccessNotice
            previewPath={`/api/checkpoints/${restoring.id}/restore-preview`}
            keep={keepAccess}
            onKeepChange={setKeepAccess}
          />
        )}
      </ConfirmDialog>
    </Card>
  );
}

/** CheckpointsTab creates checkpoints of a table and restores them, each restore after a confirmation. */
export function CheckpointsTab({ tableId }: { tableId: number }) {
  return (
    <div className="grid grid-cols-1 items-start gap-4 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
      <CreateCheckpointCard tableId={tableId} />
      <CheckpointList tableId={tableId} />
    </div>
  );
}
