import { type EditUserFormInput, type EndUserSummary, editUserFormSchema } from '@basalt/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
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
import { showServerFieldErrors } from '@/features/settings/server-field-errors';
import { useUpdateUserMutation } from './users.queries';

const FIELDS = ['username', 'email'] as const;

function EditUserForm({ user, onDone }: { user: EndUserSummary; onDone: () => void }) {
  const update = useUpdateUserMutation();
  const form = useForm<EditUserFormInput>({
    resolver: zodResolver(editUserFormSchema),
    defaultValues: { username: user.username, email: user.email },
  });
  const { errors, isDirty } = form.formState;
  const submit = form.handleSubmit((input) =>
    update.mutate(
      { id: user.id, input },
      { onSuccess: onDone, onError: (error) => showServerFieldErrors(error, FIELDS, form.setError) },
    ),
  );
  return (
    <form noValidate onSubmit={submit} className="grid grid-cols-1 gap-4" aria-label="Edit user">
      <FormField id="edit-user-username" label="Username" error={errors.username?.message}>
        <Input
          {...fieldAria('edit-user-username', errors.username?.message)}
          autoComplete="off"
          {...form.register('username')}
        />
      </FormField>
      <FormField id="edit-user-email" label="Email" error={errors.email?.message}>
        <Input
          {...fieldAria('edit-user-email', errors.email?.message)}
          type="email"
          autoComplete="off"
          {...form.register('email')}
        />
      </FormField>
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" disabled={!isDirty || update.isPending}>
          {update.isPending ? 'Saving...' : 'Save'}
        </Button>
      </DialogFooter>
    </form>
  );
}

/** EditUserDialog changes a user's username and email. */
export function EditUserDialog({ user, onClose }: { user: EndUserSummary | null; onClose: () => void }) {
  return (
    <Dialog open={user !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Edit User</DialogTitle>
          <DialogDescription>Changes apply at once; the user signs in with the new email.</DialogDescription>
        </DialogHeader>
        {user && <EditUserForm key={user.id} user={user} onDone={onClose} />}
      </DialogContent>
    </Dialog>
  );
}
