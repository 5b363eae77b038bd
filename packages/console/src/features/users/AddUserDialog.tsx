import { type AddUserFormInput, addUserFormSchema } from '@basalt/shared';
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
    <form noValidate onSubmit={submit} className="grid grid-cols-1 gap-4" aria-label="Add user">
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
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" disabled={create.isPending}>
          {create.isPending ? 'Adding...' : 'Add User'}
        </Button>
      </DialogFooter>
    </form>
  );
}

/** AddUserDialog adds a user to the app: username, email, password and its confirmation. */
export function AddUserDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Add User</DialogTitle>
          <DialogDescription>The user can sign in to your app at once with this email and password.</DialogDescription>
        </DialogHeader>
        {open && <AddUserForm onDone={() => onOpenChange(false)} />}
      </DialogContent>
    </Dialog>
  );
}
