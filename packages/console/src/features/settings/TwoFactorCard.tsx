import { ShieldCheck } from 'lucide-react';
import { useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { CopyButton } from '@/components/ui/copy-button';
import { FormField, fieldAria } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { errorMessage } from '@/lib/api-errors';
import {
  type PendingFactor,
  useEnrollFactorMutation,
  useFactorsQuery,
  useUnenrollFactorMutation,
  useVerifyFactorMutation,
} from './mfa.queries';

// Set-up: scan the QR code (or type the key) into an authenticator app, then enter its first code.
function EnrollStep({ pending, onDone }: { pending: PendingFactor; onDone: () => void }) {
  const verify = useVerifyFactorMutation();
  const cancel = useUnenrollFactorMutation();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | undefined>();
  const submit = () => {
    if (!/^\d{6}$/.test(code.trim())) {
      setError('Enter the 6-digit code from your authenticator app');
      return;
    }
    verify.mutate(
      { factorId: pending.id, code: code.trim() },
      {
        onSuccess: onDone,
        onError: (failed) => setError(errorMessage(failed)),
      },
    );
  };
  return (
    <form
      noValidate
      aria-label="Set up two-factor authentication"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <CardContent className="grid gap-5 sm:grid-cols-[auto_1fr] sm:items-start">
        <img
          src={pending.qrCode}
          alt="QR code for your authenticator app"
          className="size-44 rounded-lg border bg-white p-2"
        />
        <div className="grid gap-4">
          <p className="text-sm text-muted-foreground">
            Scan the QR code with an authenticator app (such as 1Password, Google Authenticator or Authy), then enter
            the 6-digit code it shows.
          </p>
          <div className="grid gap-1">
            <span className="text-xs text-muted-foreground">Can&apos;t scan it? Enter this key:</span>
            <div className="flex items-center gap-2">
              <code className="break-all rounded bg-muted px-2 py-1 font-mono text-xs" data-testid="totp-secret">
                {pending.secret}
              </code>
              <CopyButton value={pending.secret} label="Copy key" />
            </div>
          </div>
          <FormField id="totp-code" label="6-digit code" error={error}>
            <Input
              {...fieldAria('totp-code', error)}
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              placeholder="123456"
              className="sm:max-w-40"
              value={code}
              onChange={(e) => {
                setCode(e.target.value);
                setError(undefined);
              }}
            />
          </FormField>
        </div>
      </CardContent>
      <CardFooter className="justify-end gap-2">
        <Button
          type="button"
          variant="outline"
          disabled={cancel.isPending}
          onClick={() => cancel.mutate(pending.id, { onSettled: onDone })}
        >
          Cancel
        </Button>
        <Button type="submit" disabled={verify.isPending}>
          {verify.isPending ? 'Verifying...' : 'Verify and turn on'}
        </Button>
      </CardFooter>
    </form>
  );
}

/** TwoFactorCard is Settings › Account › Two-factor authentication: set up, see and remove a TOTP factor. */
export function TwoFactorCard() {
  const factors = useFactorsQuery();
  const enroll = useEnrollFactorMutation();
  const remove = useUnenrollFactorMutation();
  const [pending, setPending] = useState<PendingFactor | null>(null);
  const [confirming, setConfirming] = useState(false);
  const verified = factors.data?.find((f) => f.status === 'verified');

  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <ShieldCheck aria-hidden className="size-4" />
          Two-factor authentication
          {verified ? <Badge>On</Badge> : <Badge variant="secondary">Off</Badge>}
        </CardTitle>
        <CardDescription>Ask for a code from an authenticator app each time you sign in.</CardDescription>
      </CardHeader>
      {pending ? (
        <EnrollStep pending={pending} onDone={() => setPending(null)} />
      ) : verified ? (
        <>
          <CardContent>
            <p className="text-sm text-muted-foreground">
              Authenticator app added on {new Date(verified.created_at).toLocaleDateString()}.
            </p>
          </CardContent>
          <CardFooter className="justify-end">
            <Button variant="outline" onClick={() => setConfirming(true)} disabled={remove.isPending}>
              Turn off
            </Button>
          </CardFooter>
        </>
      ) : (
        <CardFooter className="justify-end">
          <Button
            disabled={enroll.isPending || factors.isLoading}
            onClick={() =>
              enroll.mutate(
                (factors.data ?? []).filter((f) => f.status !== 'verified'),
                { onSuccess: setPending },
              )
            }
          >
            {enroll.isPending ? 'Starting...' : 'Set up two-factor authentication'}
          </Button>
        </CardFooter>
      )}
      <ConfirmDialog
        open={confirming}
        title="Turn off two-factor authentication?"
        description="Signing in will ask for your password only."
        confirmLabel="Turn off"
        onConfirm={() => verified && remove.mutate(verified.id)}
        onClose={() => setConfirming(false)}
      />
    </Card>
  );
}
