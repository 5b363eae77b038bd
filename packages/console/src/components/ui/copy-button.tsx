import { Check, Copy } from 'lucide-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { showToast } from '@/lib/toast';
import { Button, type ButtonProps } from './button';

/** COPIED_RESET_MS is how long a copy button shows that it copied. */
export const COPIED_RESET_MS = 2000;

// navigator.clipboard exists only in secure contexts; a console served over plain http on a LAN address
// falls back to the selection-based copy every browser still supports.
async function writeClipboard(text: string): Promise<void> {
  if (navigator.clipboard?.writeText) {
    await navigator.clipboard.writeText(text);
    return;
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.append(area);
  area.select();
  const done = document.execCommand('copy');
  area.remove();
  if (!done) throw new Error('Could not copy to clipboard');
}

/** useCopyToClipboard copies text and says `copied` for resetMs; a failure shows the "Failed to copy" toast. */
export function useCopyToClipboard(resetMs = COPIED_RESET_MS) {
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const copy = useCallback(
    async (text: string): Promise<boolean> => {
      try {
        await writeClipboard(text);
      } catch {
        showToast({ title: 'Failed to copy', description: 'Could not copy to clipboard', variant: 'destructive' });
        return false;
      }
      setCopied(true);
      clearTimeout(timer.current);
      timer.current = setTimeout(() => setCopied(false), resetMs);
      return true;
    },
    [resetMs],
  );
  return { copied, copy };
}

/** CopyButton copies `value`; its icon turns into a check for 2 s. */
export function CopyButton({
  value,
  label = 'Copy',
  copiedLabel = 'Copied',
  showLabel = false,
  onCopied,
  variant = 'outline',
  size,
  ...props
}: Omit<ButtonProps, 'value' | 'onClick'> & {
  value: string;
  label?: string;
  copiedLabel?: string;
  showLabel?: boolean;
  onCopied?: () => void;
}) {
  const { copied, copy } = useCopyToClipboard();
  const text = copied ? copiedLabel : label;
  return (
    <Button
      variant={variant}
      size={size ?? (showLabel ? 'sm' : 'icon-sm')}
      aria-label={showLabel ? undefined : text}
      onClick={async () => {
        if (await copy(value)) onCopied?.();
      }}
      {...props}
    >
      {copied ? <Check className="text-primary" /> : <Copy />}
      {showLabel && text}
    </Button>
  );
}
