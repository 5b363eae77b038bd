import { type RegisterRequest, registerFormSchema } from '@basalt/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { FormField, fieldAria } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { PasswordInput } from '@/components/ui/password-input';
import { PasswordStrengthMeter } from './PasswordStrengthMeter';
import { TermsLink } from './TermsLink';

/** RegisterFormProps wire the form to the registration mutation. */
export interface RegisterFormProps {
  isPending: boolean;
  /** onSubmit receives {username, email, password}; the confirmation and terms stay in the form. */
  onSubmit: (values: RegisterRequest) => void;
  /** Where the instance's terms are published; null: there are none, and nothing is asked to accept. */
  termsUrl: string | null;
}

/** RegisterForm is the Register tab, validated by the shared registration schema. */
export function RegisterForm({ isPending, onSubmit, termsUrl }: RegisterFormProps) {
  const form = useForm({
    resolver: zodResolver(registerFormSchema),
    // Validate on submit, then live: validating on blur moves the submit button under the pointer.
    mode: 'onSubmit',
    defaultValues: { username: '', email: '', password: '', confirmPassword: '', acceptTerms: termsUrl === null },
  });
  const { errors } = form.formState;
  const password = useWatch({ control: form.control, name: 'password' });

  return (
    <form
      noValidate
      className="grid gap-4"
      onSubmit={form.handleSubmit(({ username, email, password }) => onSubmit({ username, email, password }))}
    >
      <FormField id="register-username" label="Username" error={errors.username?.message}>
        <Input
          {...fieldAria('register-username', errors.username?.message)}
          autoComplete="username"
          placeholder="e.g. ada_lovelace"
          {...form.register('username')}
        />
      </FormField>
      <FormField id="register-email" label="Email" error={errors.email?.message}>
        <Input
          {...fieldAria('register-email', errors.email?.message)}
          type="email"
          autoComplete="email"
          placeholder="you@example.com"
          {...form.register('email')}
        />
      </FormField>
      <FormField
        id="register-password"
        label="Password"
        error={errors.password?.message}
        hint={<PasswordStrengthMeter password={password} />}
      >
        <PasswordInput
          {...fieldAria('register-password', errors.password?.message)}
          autoComplete="new-password"
          {...form.register('password', {
            // After a submit, re-check the confirmation as the password changes.
            onChange: () => form.formState.isSubmitted && form.trigger('confirmPassword'),
          })}
        />
      </FormField>
      <FormField id="register-confirm-password" label="Confirm Password" error={errors.confirmPassword?.message}>
        <PasswordInput
          {...fieldAria('register-confirm-password', errors.confirmPassword?.message)}
          autoComplete="new-password"
          {...form.register('confirmPassword')}
        />
      </FormField>
      {termsUrl !== null && (
        <div className="grid gap-2">
          <div className="flex items-start gap-2">
            <Controller
              control={form.control}
              name="acceptTerms"
              render={({ field }) => (
                <Checkbox
                  id="register-terms"
                  // Named by its label and the terms link beside it: "I accept the terms and conditions".
                  aria-labelledby="register-terms-label register-terms-link"
                  className="mt-0.5"
                  checked={field.value === true}
                  onCheckedChange={(checked) => field.onChange(checked === true)}
                  onBlur={field.onBlur}
                  aria-invalid={errors.acceptTerms ? true : undefined}
                  aria-describedby={errors.acceptTerms ? 'register-terms-error' : undefined}
                />
              )}
            />
            <p className="text-sm leading-snug text-muted-foreground">
              <Label id="register-terms-label" htmlFor="register-terms" className="leading-snug font-normal">
                I accept the
              </Label>{' '}
              <TermsLink id="register-terms-link" href={termsUrl} />
            </p>
          </div>
          {errors.acceptTerms?.message && (
            <p id="register-terms-error" role="alert" className="text-[13px] font-medium text-destructive">
              {errors.acceptTerms.message}
            </p>
          )}
        </div>
      )}
      <Button type="submit" className="w-full" disabled={isPending}>
        {isPending ? 'Creating account...' : 'Create account'}
      </Button>
    </form>
  );
}
