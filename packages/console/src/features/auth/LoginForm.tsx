import { type LoginRequest, loginSchema } from '@basalt/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { FormField, fieldAria } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { PasswordInput } from '@/components/ui/password-input';

/** LoginFormProps wire the form to the sign-in and password-reset mutations. */
export interface LoginFormProps {
  defaultEmail?: string;
  isPending: boolean;
  isResetPending?: boolean;
  /** onSubmit receives {email, password}; Remember me is not sent. */
  onSubmit: (values: LoginRequest) => void;
  onForgotPassword: (email: string) => void;
}

/** LoginForm is the Login tab: email, password, Remember me and Forgot password. */
export function LoginForm({
  defaultEmail = '',
  isPending,
  isResetPending,
  onSubmit,
  onForgotPassword,
}: LoginFormProps) {
  const form = useForm({
    resolver: zodResolver(loginSchema),
    // Validate on submit, then live: validating on blur moves the submit button under the pointer.
    mode: 'onSubmit',
    defaultValues: { email: defaultEmail, password: '', rememberMe: false },
  });
  const { errors } = form.formState;

  const forgotPassword = async () => {
    // Only the email matters here; show its message if it is not a valid address yet.
    if (await form.trigger('email')) onForgotPassword(form.getValues('email'));
  };

  return (
    <form
      noValidate
      className="grid gap-4"
      onSubmit={form.handleSubmit(({ email, password }) => onSubmit({ email, password }))}
    >
      <FormField id="login-email" label="Email" error={errors.email?.message}>
        <Input
          {...fieldAria('login-email', errors.email?.message)}
          type="email"
          autoComplete="email"
          placeholder="you@example.com"
          {...form.register('email')}
        />
      </FormField>
      <FormField
        id="login-password"
        label="Password"
        error={errors.password?.message}
        labelAction={
          <Button variant="link" size="sm" className="text-xs" onClick={forgotPassword} disabled={isResetPending}>
            {isResetPending ? 'Sending link...' : 'Forgot password?'}
          </Button>
        }
      >
        <PasswordInput
          {...fieldAria('login-password', errors.password?.message)}
          autoComplete="current-password"
          placeholder="••••••••"
          {...form.register('password')}
        />
      </FormField>
      <div className="flex items-center gap-2">
        <Controller
          control={form.control}
          name="rememberMe"
          render={({ field }) => (
            <Checkbox
              id="login-remember"
              checked={field.value === true}
              onCheckedChange={(checked) => field.onChange(checked === true)}
              onBlur={field.onBlur}
            />
          )}
        />
        <Label htmlFor="login-remember" className="font-normal text-muted-foreground">
          Remember me
        </Label>
      </div>
      <Button type="submit" className="w-full" disabled={isPending}>
        {isPending ? 'Signing in...' : 'Sign in'}
      </Button>
    </form>
  );
}
