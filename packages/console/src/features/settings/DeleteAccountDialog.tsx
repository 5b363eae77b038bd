import { useState } from 'react';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
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
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (deletion.isPending) return;
        onOpenChange(next);
        if (!next) setTyped('');
      }}
    >
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Delete your account?</DialogTitle>
          <DialogDescription>
            This permanently deletes your account, your tables and all their data, your history and your API keys. This
            action cannot be undone.
          </DialogDescription>
        </DialogHeader>
        <form
          noValidate
          className="grid gap-4"
          onSubmit={(e) => {
            e.preventDefault();
            if (matches) deletion.mutate(typed);
          }}
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
          <DialogFooter>
            <Button variant="outline" disabled={deletion.isPending} onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit" variant="destructive" disabled={!matches || deletion.isPending}>
              {deletion.isPending ? 'Deleting...' : 'Delete Account'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
