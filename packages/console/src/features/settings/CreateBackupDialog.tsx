import { type CreateBackupInput, createBackupSchema } from '@basalt/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { FormField, fieldAria } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Switch } from '@/components/ui/switch';
import { Textarea } from '@/components/ui/textarea';
import { useCreateBackupMutation } from './backups.queries';

// The Create backup dialog: a name and a description (both optional), with or without the stored files.

function BackupForm({ onDone }: { onDone: () => void }) {
  const creation = useCreateBackupMutation();
  const form = useForm<CreateBackupInput>({
    resolver: zodResolver(createBackupSchema),
    defaultValues: { name: undefined, description: undefined, includeFiles: false },
  });
  const { errors } = form.formState;
  return (
    <form
      noValidate
      className="grid grid-cols-1 gap-4"
      onSubmit={form.handleSubmit((input) => creation.mutate(input, { onSuccess: onDone }))}
    >
      <FormField id="backup-name" label="Name" error={errors.name?.message}>
        <Input
          {...fieldAria('backup-name', errors.name?.message)}
          placeholder="Before the spring release"
          autoComplete="off"
          {...form.register('name', { setValueAs: (v: string) => (v.trim() === '' ? undefined : v) })}
        />
      </FormField>
      <FormField id="backup-description" label="Description" error={errors.description?.message}>
        <Textarea
          {...fieldAria('backup-description', errors.description?.message)}
          rows={3}
          {...form.register('description', { setValueAs: (v: string) => (v === '' ? undefined : v) })}
        />
      </FormField>
      <Controller
        control={form.control}
        name="includeFiles"
        render={({ field }) => (
          <div className="flex items-start gap-3">
            <Switch id="backup-files" checked={field.value ?? false} onCheckedChange={field.onChange} />
            <div className="grid gap-0.5">
              <Label htmlFor="backup-files">Include stored files</Label>
              <p className="text-xs text-muted-foreground">The files the instance stores, beside its database.</p>
            </div>
          </div>
        )}
      />
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" disabled={creation.isPending}>
          {creation.isPending ? 'Starting...' : 'Create backup'}
        </Button>
      </DialogFooter>
    </form>
  );
}

/** CreateBackupDialog starts a backup of the instance. */
export function CreateBackupDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Create backup</DialogTitle>
          <DialogDescription>Writes keep flowing while the backup is taken.</DialogDescription>
        </DialogHeader>
        {open && <BackupForm onDone={() => onOpenChange(false)} />}
      </DialogContent>
    </Dialog>
  );
}
