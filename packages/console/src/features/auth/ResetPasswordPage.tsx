import { passwordSchema, SITE_NAME } from '@basalt/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { ArrowLeft, KeyRound } from 'lucide-react';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { z } from 'zod';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader } from '@/components/ui/card';
import { FormField, fieldAria } from '@/components/ui/form-field';
import { LinkButton } from '@/components/ui/link-button';
import { PasswordInput } from '@/components/ui/password-input';
import { CenteredSpinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-errors';
import { showToast } from '@/lib/toast';
import { setNewPassword } from './auth-actions';
import { useAuth } from './auth-context';
import { PasswordStrengthMeter } from './PasswordStrengthMeter';

const resetFormSchema = z
  .object({ newPassword: passwordSchema, confirmPassword: z.string() })
  .refine((v) => v.newPassword === v.confirmPassword, { message: 'Passwords do not match', path: ['confirmPassword'] });
type ResetForm = z.infer<typeof resetFormSchema>;

/** linkError is the refusal a reset link came back with (expired, already used), read once from the fragment. */
function linkError(): string | null {
  const fragment = new URLSearchParams(window.location.hash.slice(1));
  if (!fragment.get('error') && !fragment.get('error_code')) return null;
  return fragment.get('error_description') ?? 'This link is invalid or has expired';
}

/**
 * ResetPasswordPage is where a password-reset mail's link leads: the link signed the person in (a recovery
 * session), and here they choose the new password without the forgotten one, then go on to the Dashboard.
 */
export function ResetPasswordPage() {
  const { client, session, user, isLoading } = useAuth();
  const [refusal] = useState(linkError);
  const navigate = useNavigate();
  const form = useForm<ResetForm>({
    resolver: zodResolver(resetFormSchema),
    defaultValues: { newPassword: '', confirmPassword: '' },
  });
  const password = useWatch({ control: form.control, name: 'newPassword' });
  const save = useMutation({
    mutationFn: (newPassword: string) => setNewPassword(client, newPassword),
    retry: false,
    onSuccess: () => {
      showToast({ title: 'Password updated', description: 'Your new password is set.', variant: 'success' });
      navigate('/', { replace: true });
    },
    onError: (error) => form.setError('newPassword', { message: errorMessage(error) }),
  });
  const { errors } = form.formState;

  if (isLoading) return <CenteredSpinner fullScreen label="Loading your session" />;

  return (
    <main className="flex min-h-dvh items-center justify-center bg-background p-4">
      <Card className="w-full max-w-md">
        <CardHeader>
          <div className="flex items-center gap-2">
            <KeyRound aria-hidden className="size-5 text-primary" />
            <h1 className="text-xl font-semibold tracking-tight">Set a new password</h1>
          </div>
          <CardDescription>
            {session
              ? `Choose the new password of your ${SITE_NAME} account${user?.email ? ` ${user.email}` : ''}.`
              : 'This password-reset link cannot be used.'}
          </CardDescription>
        </CardHeader>
        {session ? (
          <form
            noValidate
            aria-label="Set a new password"
            onSubmit={form.handleSubmit((v) => save.mutate(v.newPassword))}
          >
            {/* Lets password managers tie the new password to the account. */}
            <input type="text" name="username" autoComplete="username" value={user?.email ?? ''} hidden readOnly />
            <CardContent className="grid gap-5">
              <FormField
                id="reset-new-password"
                label="New password"
                error={errors.newPassword?.message}
                hint={<PasswordStrengthMeter password={password} />}
              >
                <PasswordInput
                  {...fieldAria('reset-new-password', errors.newPassword?.message)}
                  autoComplete="new-password"
                  {...form.register('newPassword')}
                />
              </FormField>
              <FormField
                id="reset-confirm-password"
                label="Confirm new password"
                error={errors.confirmPassword?.message}
              >
                <PasswordInput
                  {...fieldAria('reset-confirm-password', errors.confirmPassword?.message)}
                  autoComplete="new-password"
                  {...form.register('confirmPassword')}
                />
              </FormField>
            </CardContent>
            <CardFooter className="justify-end">
              <Button type="submit" disabled={save.isPending}>
                {save.isPending ? 'Saving...' : 'Set password'}
              </Button>
            </CardFooter>
          </form>
        ) : (
          <>
            <CardContent>
              <p role="alert" className="text-sm text-destructive">
                {refusal ?? 'The link is invalid or has expired, or it was opened in another browser.'}
              </p>
              <p className="mt-2 text-sm text-muted-foreground">
                Ask for a new link with “Forgot password?” on the sign-in page.
              </p>
            </CardContent>
            <CardFooter className="justify-end">
              <LinkButton to="/auth" icon={ArrowLeft}>
                Back to sign in
              </LinkButton>
            </CardFooter>
          </>
        )}
      </Card>
    </main>
  );
}
