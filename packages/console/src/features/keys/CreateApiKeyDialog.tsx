import { type CreateApiKeyInput, type CreatedApiKey, createApiKeySchema } from '@basalt/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import { TriangleAlert } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { CopyButton } from '@/components/ui/copy-button';
import { DialogFooter } from '@/components/ui/dialog';
import { DialogForm, FormDialog } from '@/components/ui/form-dialog';
import { FormField, fieldAria } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { useCreateApiKeyMutation } from './keys.queries';

function NameForm({ onCreated, onCancel }: { onCreated: (key: CreatedApiKey) => void; onCancel: () => void }) {
  const creation = useCreateApiKeyMutation();
  const form = useForm<CreateApiKeyInput>({ resolver: zodResolver(createApiKeySchema), defaultValues: { name: '' } });
  const error = form.formState.errors.name?.message;
  return (
    <DialogForm
      onSubmit={form.handleSubmit((input) => creation.mutate(input, { onSuccess: onCreated }))}
      onCancel={onCancel}
      submitLabel="Create API Key"
      pendingLabel="Creating..."
      pending={creation.isPending}
    >
      <FormField id="api-key-name" label="Name" error={error}>
        <Input
          {...fieldAria('api-key-name', error)}
          placeholder="My mobile app"
          autoComplete="off"
          {...form.register('name')}
        />
      </FormField>
    </DialogForm>
  );
}

function SecretView({ created, onDone }: { created: CreatedApiKey; onDone: () => void }) {
  return (
    <div className="grid grid-cols-1 gap-4">
      <div className="flex gap-2 rounded-lg border border-warning/40 bg-warning/10 p-3 text-sm">
        <TriangleAlert aria-hidden className="mt-0.5 size-4 shrink-0 text-warning" />
        <span>Copy this key now. It is shown only once and grants full access to your account.</span>
      </div>
      <div className="grid gap-2">
        <label htmlFor="api-key-secret" className="text-sm font-medium">
          {created.name}
        </label>
        <div className="flex gap-2">
          <Input
            id="api-key-secret"
            readOnly
            value={created.key}
            className="font-mono text-[13px]"
            onFocus={(e) => e.currentTarget.select()}
          />
          <CopyButton value={created.key} label="Copy API key" copiedLabel="Copied" size="icon" />
        </div>
      </div>
      <DialogFooter>
        <Button onClick={onDone}>Done</Button>
      </DialogFooter>
    </div>
  );
}

/** CreateApiKeyDialog asks for a name, creates the key and shows its secret once with a copy button. */
export function CreateApiKeyDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const close = () => onOpenChange(false);
  return (
    <FormDialog
      open={open}
      onOpenChange={(next) => {
        onOpenChange(next);
        // The secret is forgotten as the dialog closes: it is never shown again.
        if (!next) setCreated(null);
      }}
      // Clicking outside must not lose a secret that was not copied yet.
      onInteractOutside={(e) => created && e.preventDefault()}
      title={created ? 'API Key created' : 'Create API Key'}
      description={
        created
          ? 'Use it as a bearer token: Authorization: Bearer <key>.'
          : 'Name the key after the app that will use it. Keys grant full access to your account.'
      }
    >
      {created ? (
        <SecretView
          created={created}
          onDone={() => {
            close();
            setCreated(null);
          }}
        />
      ) : (
        <NameForm onCreated={setCreated} onCancel={close} />
      )}
    </FormDialog>
  );
}
