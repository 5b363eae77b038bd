import { useState } from 'react';
import { DialogForm, FormDialog } from '@/components/ui/form-dialog';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { errorMessage } from '@/lib/api-errors';
import { showToast } from '@/lib/toast';
import { signedUrlOf } from './storage.queries';

// Copying a signed URL of a file: the person picks how long it works (a minute, an hour, a day, a week, or a
// number of seconds), the page signs it (POST /storage/v1/object/sign/…) and copies it.

/** EXPIRY_CHOICES are the offered lifetimes, in seconds. */
export const EXPIRY_CHOICES = [
  { label: '1 minute', seconds: 60 },
  { label: '1 hour', seconds: 3600 },
  { label: '1 day', seconds: 86_400 },
  { label: '1 week', seconds: 604_800 },
] as const;

/** MAX_EXPIRY_SECONDS is the server's longest signed URL (ten years, storage-transfer.ts). */
export const MAX_EXPIRY_SECONDS = 10 * 365 * 24 * 3600;

/** customExpiryError says what is wrong with a typed number of seconds, or undefined when it is fine. */
export function customExpiryError(text: string): string | undefined {
  const value = text.trim();
  if (value === '') return 'Enter a number of seconds';
  if (!/^\d+$/.test(value)) return 'Enter a whole number of seconds, such as 300';
  const seconds = Number(value);
  if (seconds < 1) return 'A signed URL must work for at least 1 second';
  if (seconds > MAX_EXPIRY_SECONDS) return `At most ${MAX_EXPIRY_SECONDS.toLocaleString('en-US')} seconds (ten years)`;
  return undefined;
}

/** lifetimeOf says a number of seconds for people ("1 hour", "90 seconds"). */
export function lifetimeOf(seconds: number): string {
  const known = EXPIRY_CHOICES.find((choice) => choice.seconds === seconds);
  if (known) return known.label;
  return `${seconds.toLocaleString('en-US')} second${seconds === 1 ? '' : 's'}`;
}

/** SignedUrlDialog signs a URL of `path` for a chosen time and copies it. */
export function SignedUrlDialog({
  bucket,
  path,
  onClose,
}: {
  bucket: string;
  path: string | null;
  onClose: () => void;
}) {
  return (
    <FormDialog
      open={path !== null}
      onOpenChange={(open) => !open && onClose()}
      title="Copy a signed URL"
      description="Anyone with the URL can download the file until it expires, without signing in."
    >
      {path && <SignForm bucket={bucket} path={path} onClose={onClose} />}
    </FormDialog>
  );
}

function SignForm({ bucket, path, onClose }: { bucket: string; path: string; onClose: () => void }) {
  const [choice, setChoice] = useState('3600');
  const [custom, setCustom] = useState('');
  const [pending, setPending] = useState(false);
  const isCustom = choice === 'custom';
  const error = isCustom ? customExpiryError(custom) : undefined;
  const seconds = isCustom ? Number(custom.trim()) : Number(choice);
  const submit = async () => {
    if (error) return;
    setPending(true);
    try {
      await navigator.clipboard.writeText(await signedUrlOf(bucket, path, seconds));
      showToast({
        title: 'Signed URL copied',
        description: `It works for ${lifetimeOf(seconds)}.`,
        variant: 'success',
      });
      onClose();
    } catch (failure) {
      showToast({ title: 'Could not sign the URL', description: errorMessage(failure), variant: 'destructive' });
    } finally {
      setPending(false);
    }
  };
  return (
    <DialogForm
      aria-label="Signed URL"
      onSubmit={() => void submit()}
      onCancel={onClose}
      submitLabel="Copy URL"
      pendingLabel="Signing…"
      pending={pending}
      submitDisabled={Boolean(error)}
    >
      <p className="font-mono text-xs [overflow-wrap:anywhere]">{path}</p>
      <FormField id="sign-expiry" label="Expires after">
        <NativeSelect id="sign-expiry" value={choice} onChange={(e) => setChoice(e.target.value)}>
          {EXPIRY_CHOICES.map((option) => (
            <option key={option.seconds} value={String(option.seconds)}>
              {option.label}
            </option>
          ))}
          <option value="custom">Custom…</option>
        </NativeSelect>
      </FormField>
      {isCustom && (
        <FormField id="sign-seconds" label="Seconds" error={custom === '' ? undefined : error}>
          <Input
            id="sign-seconds"
            inputMode="numeric"
            autoFocus
            placeholder="300"
            value={custom}
            aria-invalid={custom !== '' && Boolean(error)}
            onChange={(e) => setCustom(e.target.value)}
          />
        </FormField>
      )}
    </DialogForm>
  );
}
