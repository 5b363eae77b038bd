import { type AddUserFormInput, addUserFormSchema } from '@basalt/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { DialogForm, FormDialog } from '@/components/ui/form-dialog';
import { FormField, fieldAria } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { PasswordInput } from '@/components/ui/password-input';
import { showServerFieldErrors } from '@/features/settings/server-field-errors';
import { useCreateUserMutation } from './users.queries';

const EMPTY: AddUserFormInput = { username: '', email: '', password: '', confirmPassword: '' };
const FIELDS = ['username', 'email', 'password'] as const;

function AddUserForm({ onDone }: { onDone: () => void }) {
  const create = useCreateUserMutation();
  const form = useForm<AddUserFormInput>({ resolver: zodResolver(addUserFormSchema), defaultValues: EMPTY });
  const { errors } = form.formState;
  const submit = form.handleSubmit((input) =>
    create.mutate(input, {
      onSuccess: onDone,
      onError: (error) => showServerFieldErrors(error, FIELDS, form.setError),
    }),
  );
  return (
    <DialogForm
      aria-label="Add user"
      onSubmit={submit}
      onCancel={onDone}
      submitLabel="Add User"
      pendingLabel="Adding..."
      pending={create.isPending}
    >
      <FormField id="add-user-username" label="Username" error={errors.username?.message}>
        <Input
          {...fieldAria('add-user-username', errors.username?.message)}
          autoComplete="off"
          {...form.register('username')}
        />
      </FormField>
      <FormField id="add-user-email" label="Email" error={errors.email?.message}>
        <Input
          {...fieldAria('add-user-email', errors.email?.message)}
          type="email"
          autoComplete="off"
          {...form.register('email')}
        />
      </FormField>
      <FormField id="add-user-password" label="Password" error={errors.password?.message}>
        <PasswordInput
          {...fieldAria('add-user-password', errors.password?.message)}
          autoComplete="new-password"
          {...form.register('password')}
        />
      </FormField>
      <FormField id="add-user-confirm" label="Confirm password" error={errors.confirmPassword?.message}>
        <PasswordInput
          {...fieldAria('add-user-confirm', errors.confirmPassword?.message)}
          autoComplete="new-password"
          {...form.register('confirmPassword')}
        />
      </FormField>
    </DialogForm>
  );
}

/** AddUserDialog adds a user to the app: username, email, password and its confirmation. */
export function AddUserDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Add User"
      description="The user can sign in to your app at once with this email and password."
    >
      <AddUserForm onDone={() => onOpenChange(false)} />
    </FormDialog>
  );
}
