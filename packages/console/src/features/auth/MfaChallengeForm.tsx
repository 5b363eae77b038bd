import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { FormField, fieldAria } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { errorMessage } from '@/lib/api-errors';
import { getSupabase } from '@/lib/supabase';
import { useAuth } from './auth-context';

const CODE = /^\d{6}$/;

/**
 * MfaChallengeForm is the second step of a sign-in whose account has two-factor authentication: the 6-digit code
 * of the authenticator app raises the session to aal2 (supabase-js mfa.challengeAndVerify), after which the route
 * guard opens the console. "Use another account" signs out.
 */
export function MfaChallengeForm() {
  const { session } = useAuth();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [pending, setPending] = useState(false);
  const factor = session?.user.factors?.find((f) => f.status === 'verified' && f.factor_type === 'totp');

  const submit = async () => {
    const trimmed = code.trim();
    if (!CODE.test(trimmed)) {
      setError('Enter the 6-digit code from your authenticator app');
      return;
    }
    if (!factor) return;
    setPending(true);
    const { error: failed } = await getSupabase().auth.mfa.challengeAndVerify({ factorId: factor.id, code: trimmed });
    setPending(false);
    if (failed)
      setError(
        failed.code === 'mfa_verification_failed'
          ? 'That code is not right. Try the current one.'
          : errorMessage(failed),
      );
  };

  return (
    <form
      noValidate
      aria-label="Two-factor authentication"
      className="grid gap-4"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <div className="text-center">
        <h2 className="text-lg font-semibold">Two-factor authentication</h2>
        <p className="mt-1 text-sm text-muted-foreground">Enter the 6-digit code from your authenticator app.</p>
      </div>
      <FormField id="mfa-code" label="Authentication code" error={error}>
        <Input
          {...fieldAria('mfa-code', error)}
          inputMode="numeric"
          autoComplete="one-time-code"
          autoFocus
          maxLength={6}
          placeholder="123456"
          value={code}
          onChange={(e) => {
            setCode(e.target.value);
            setError(undefined);
          }}
        />
      </FormField>
      <Button type="submit" className="w-full" disabled={pending}>
        {pending ? 'Verifying...' : 'Verify'}
      </Button>
      <Button type="button" variant="link" className="text-sm" onClick={() => void getSupabase().auth.signOut()}>
        Use another account
      </Button>
    </form>
  );
}
