import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { DialogForm, FormDialog } from '@/components/ui/form-dialog';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { errorMessage } from '@/lib/api-errors';
import { showToast } from '@/lib/toast';
import { publicUrlOf, signedUrlOf } from './storage.queries';

// Copying a signed URL of a file: the person picks how long it works (a minute, an hour, a day, a week, or a
// number of seconds), the page signs it (POST /storage/v1/object/sign/…) and copies it. A public bucket's file
// also has a public URL that never expires, offered beside it.

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
  isPublic,
  path,
  onClose,
}: {
  bucket: string;
  isPublic: boolean;
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
      {path && <SignForm bucket={bucket} isPublic={isPublic} path={path} onClose={onClose} />}
    </FormDialog>
  );
}

function SignForm({
  bucket,
  isPublic,
  path,
  onClose,
}: {
  bucket: string;
  isPublic: boolean;
  path: string;
  onClose: () => void;
}) {
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
  const copyPublic = async () => {
    try {
      await navigator.clipboard.writeText(publicUrlOf(bucket, path));
      showToast({
        title: 'Public URL copied',
        description: 'It works while the bucket is public.',
        variant: 'success',
      });
      onClose();
    } catch (failure) {
      showToast({ title: 'Could not copy the URL', description: errorMessage(failure), variant: 'destructive' });
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
      {isPublic && (
        <div className="flex flex-wrap items-center justify-between gap-2 rounded-lg border bg-muted/40 p-3 text-sm">
          <span>The bucket is public: this file also has a link that never expires.</span>
          <Button type="button" variant="outline" size="sm" onClick={() => void copyPublic()}>
            Copy public URL
          </Button>
        </div>
      )}
    </DialogForm>
  );
}
