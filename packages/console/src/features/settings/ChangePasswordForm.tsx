import { changePasswordFormSchema, type ChangePasswordFormInput as FormValues } from '@basalt/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { FormField, fieldAria } from '@/components/ui/form-field';
import { PasswordInput } from '@/components/ui/password-input';
import { showServerFieldErrors } from './server-field-errors';
import { useChangePasswordMutation } from './settings.queries';

const EMPTY: FormValues = { currentPassword: '', newPassword: '', confirmPassword: '' };
const FIELDS = ['currentPassword', 'newPassword'] as const;

/** ChangePasswordForm changes the password: the current one, the new one, and the new one again. */
export function ChangePasswordForm() {
  const change = useChangePasswordMutation();
  const form = useForm<FormValues>({ resolver: zodResolver(changePasswordFormSchema), defaultValues: EMPTY });
  const { errors } = form.formState;
  const submit = form.handleSubmit(({ currentPassword, newPassword }) =>
    change.mutate(
      { currentPassword, newPassword },
      {
        onSuccess: () => form.reset(EMPTY),
        onError: (error) => showServerFieldErrors(error, FIELDS, form.setError),
      },
    ),
  );
  return (
    <Card>
      <CardHeader>
        <CardTitle>Change Password</CardTitle>
        <CardDescription>Enter your current password, then the new one twice.</CardDescription>
      </CardHeader>
      <form noValidate onSubmit={submit} aria-label="Change password">
        {/* Lets password managers tie the new password to the account. */}
        <input type="text" name="username" autoComplete="username" hidden readOnly />
        <CardContent className="grid gap-5 sm:max-w-md">
          <FormField id="current-password" label="Current password" error={errors.currentPassword?.message}>
            <PasswordInput
              {...fieldAria('current-password', errors.currentPassword?.message)}
              autoComplete="current-password"
              {...form.register('currentPassword')}
            />
          </FormField>
          <FormField id="new-password" label="New password" error={errors.newPassword?.message}>
            <PasswordInput
              {...fieldAria('new-password', errors.newPassword?.message)}
              autoComplete="new-password"
              {...form.register('newPassword')}
            />
          </FormField>
          <FormField id="confirm-password" label="Confirm new password" error={errors.confirmPassword?.message}>
            <PasswordInput
              {...fieldAria('confirm-password', errors.confirmPassword?.message)}
              autoComplete="new-password"
              {...form.register('confirmPassword')}
            />
          </FormField>
        </CardContent>
        <CardFooter className="justify-end">
          <Button type="submit" disabled={change.isPending}>
            {change.isPending ? 'Updating...' : 'Update Password'}
          </Button>
        </CardFooter>
      </form>
    </Card>
  );
}
