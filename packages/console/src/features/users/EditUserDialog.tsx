import { type EditUserFormInput, type EndUserSummary, editUserFormSchema } from '@basalt/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { DialogForm, FormDialog } from '@/components/ui/form-dialog';
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
    <DialogForm
      aria-label="Edit user"
      onSubmit={submit}
      onCancel={onDone}
      submitLabel="Save"
      pendingLabel="Saving..."
      pending={update.isPending}
      submitDisabled={!isDirty}
    >
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
    </DialogForm>
  );
}

/** EditUserDialog changes a user's username and email. */
export function EditUserDialog({ user, onClose }: { user: EndUserSummary | null; onClose: () => void }) {
  return (
    <FormDialog
      open={user !== null}
      onOpenChange={(open) => !open && onClose()}
      title="Edit User"
      description="Changes apply at once; the user signs in with the new email."
    >
      {user && <EditUserForm key={user.id} user={user} onDone={onClose} />}
    </FormDialog>
  );
}
