import { useState } from 'react';
import { DialogForm, FormDialog } from '@/components/ui/form-dialog';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { useDeleteAccountMutation } from './settings.queries';

/** DeleteAccountDialog deletes the account once the person has typed their username. */
export function DeleteAccountDialog({
  username,
  open,
  onOpenChange,
}: {
  username: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const [typed, setTyped] = useState('');
  const deletion = useDeleteAccountMutation();
  const matches = typed === username && username !== '';
  return (
    <FormDialog
      open={open}
      onOpenChange={(next) => {
        if (deletion.isPending) return;
        onOpenChange(next);
        if (!next) setTyped('');
      }}
      title="Delete your account?"
      description="This permanently deletes your account, your tables and all their data, your history and your API keys. This action cannot be undone."
    >
      <DialogForm
        onSubmit={() => {
          if (matches) deletion.mutate(typed);
        }}
        onCancel={() => onOpenChange(false)}
        submitLabel="Delete Account"
        pendingLabel="Deleting..."
        pending={deletion.isPending}
        submitDisabled={!matches}
        destructive
      >
        <FormField id="delete-account-confirm" label={`Type ${username} to confirm`}>
          <Input
            id="delete-account-confirm"
            autoComplete="off"
            autoCapitalize="off"
            spellCheck={false}
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
          />
        </FormField>
      </DialogForm>
    </FormDialog>
  );
}
