import { type CreateSecretInput, createSecretSchema } from '@basalt/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm } from 'react-hook-form';
import { DialogForm, FormDialog } from '@/components/ui/form-dialog';
import { FormField, fieldAria } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { PasswordInput } from '@/components/ui/password-input';
import { Switch } from '@/components/ui/switch';
import { useCreateSecretMutation } from './secrets.queries';

// The Add dialog.

function SecretForm({ onDone }: { onDone: () => void }) {
  const creation = useCreateSecretMutation();
  const form = useForm<CreateSecretInput>({
    resolver: zodResolver(createSecretSchema),
    defaultValues: { name: '', value: '', isEncrypted: true },
  });
  const { errors } = form.formState;
  return (
    <DialogForm
      onSubmit={form.handleSubmit((input) => creation.mutate(input, { onSuccess: onDone }))}
      onCancel={onDone}
      submitLabel="Add Secret"
      pendingLabel="Adding..."
      pending={creation.isPending}
    >
      <FormField id="secret-name" label="Name" error={errors.name?.message}>
        <Input
          {...fieldAria('secret-name', errors.name?.message)}
          placeholder="STRIPE_SECRET_KEY"
          autoComplete="off"
          spellCheck={false}
          className="font-mono text-[13px]"
          {...form.register('name')}
        />
      </FormField>
      <FormField id="secret-value" label="Value" error={errors.value?.message}>
        <PasswordInput
          {...fieldAria('secret-value', errors.value?.message)}
          autoComplete="off"
          spellCheck={false}
          className="font-mono text-[13px]"
          {...form.register('value')}
        />
      </FormField>
      <Controller
        control={form.control}
        name="isEncrypted"
        render={({ field }) => (
          <div className="flex items-start gap-3">
            <Switch id="secret-encrypted" checked={field.value ?? true} onCheckedChange={field.onChange} />
            <div className="grid gap-0.5">
              <Label htmlFor="secret-encrypted">Encrypt</Label>
              <p className="text-xs text-muted-foreground">
                Stored with AES-256-GCM. Turn off only for values that are not secret.
              </p>
            </div>
          </div>
        )}
      />
    </DialogForm>
  );
}

/** AddSecretDialog adds a secret. */
export function AddSecretDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Add Secret"
      description="Your functions read it as an environment variable."
    >
      <SecretForm onDone={() => onOpenChange(false)} />
    </FormDialog>
  );
}
