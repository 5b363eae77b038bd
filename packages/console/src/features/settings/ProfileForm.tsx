import { type ProfileFormInput, profileFormSchema, type UpdateProfileInput, type UserProfile } from '@basalt/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { CardContent, CardFooter } from '@/components/ui/card';
import { FormField, fieldAria } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Switch } from '@/components/ui/switch';
import { useConsoleConfig } from '@/lib/config';
import { showServerFieldErrors } from './server-field-errors';
import { useUpdateProfileMutation } from './settings.queries';

const FIELDS = ['username', 'email'] as const;

/** ProfileForm edits username, email and the marketing-emails switch; Save is enabled only after a change. */
export function ProfileForm({ profile }: { profile: UserProfile }) {
  const { mailConfigured } = useConsoleConfig();
  const update = useUpdateProfileMutation();
  const form = useForm<ProfileFormInput>({
    resolver: zodResolver(profileFormSchema),
    defaultValues: { username: profile.username, email: profile.email, marketingEmails: profile.marketingEmails },
  });
  const { errors, isDirty, dirtyFields } = form.formState;
  const email = useWatch({ control: form.control, name: 'email' });
  const emailChanged = email.trim() !== profile.email;

  // Only what changed is sent: an unchanged email must not mail a second confirmation link.
  const submit = form.handleSubmit((input) => {
    const changes: UpdateProfileInput = {};
    if (dirtyFields.username) changes.username = input.username;
    if (dirtyFields.email) changes.email = input.email;
    if (dirtyFields.marketingEmails) changes.marketingEmails = input.marketingEmails;
    update.mutate(changes, {
      onSuccess: ({ profile: saved }) =>
        form.reset({ username: saved.username, email: saved.email, marketingEmails: saved.marketingEmails }),
      onError: (error) => showServerFieldErrors(error, FIELDS, form.setError),
    });
  });

  return (
    <form noValidate onSubmit={submit} aria-label="Profile">
      <CardContent className="grid gap-5">
        <FormField id="profile-username" label="Username" error={errors.username?.message}>
          <Input
            {...fieldAria('profile-username', errors.username?.message)}
            autoComplete="username"
            {...form.register('username')}
          />
        </FormField>
        <FormField
          id="profile-email"
          label="Email"
          error={errors.email?.message}
          hint={
            emailChanged && mailConfigured ? (
              <p className="text-xs text-muted-foreground">
                We will send a confirmation link to the new address; the change takes effect once you follow it.
              </p>
            ) : profile.pendingEmail ? (
              <p className="text-xs text-muted-foreground">
                Waiting for you to confirm <span className="font-medium text-foreground">{profile.pendingEmail}</span>:
                follow the link we sent there.
              </p>
            ) : undefined
          }
        >
          <Input
            {...fieldAria('profile-email', errors.email?.message)}
            type="email"
            autoComplete="email"
            {...form.register('email')}
          />
        </FormField>
        <div className="flex items-start justify-between gap-4 rounded-lg border p-4">
          <div className="grid gap-1">
            <Label htmlFor="profile-marketing">Marketing emails</Label>
            <p id="profile-marketing-hint" className="text-xs text-muted-foreground">
              Product news and tips, a few times a year.
            </p>
          </div>
          <Controller
            control={form.control}
            name="marketingEmails"
            render={({ field }) => (
              <Switch
                id="profile-marketing"
                aria-describedby="profile-marketing-hint"
                checked={field.value}
                onCheckedChange={field.onChange}
                onBlur={field.onBlur}
              />
            )}
          />
        </div>
      </CardContent>
      <CardFooter className="justify-end">
        <Button type="submit" disabled={!isDirty || update.isPending}>
          {update.isPending ? 'Saving...' : 'Save'}
        </Button>
      </CardFooter>
    </form>
  );
}
