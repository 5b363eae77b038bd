import { SECRET_LIMITS, type Secret } from '@basalt/shared';
import { Check, Copy, Eye, EyeOff } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { useCopyToClipboard } from '@/components/ui/copy-button';
import { errorMessage } from '@/lib/api-errors';
import { showToast } from '@/lib/toast';
import { revealSecret } from './secrets.queries';

// A secret's value: masked as dots (up to 12), a show/hide toggle and a copy action whose highlight
// lasts 3 s. The list never carries values: showing or copying fetches the value, and the server records it.

const MASK = '•'.repeat(SECRET_LIMITS.maskDots);

/** SecretValueCell shows a secret's value masked, and reveals or copies it on demand. */
export function SecretValueCell({ secret }: { secret: Secret }) {
  const [value, setValue] = useState<string | null>(null);
  const [shown, setShown] = useState(false);
  const [loading, setLoading] = useState(false);
  const { copied, copy } = useCopyToClipboard(SECRET_LIMITS.copyHighlightMs);

  const fetchValue = async (): Promise<string | null> => {
    if (value !== null) return value;
    setLoading(true);
    try {
      const revealed = await revealSecret(secret);
      setValue(revealed);
      return revealed;
    } catch (error) {
      showToast({ title: 'Failed to reveal secret', description: errorMessage(error), variant: 'destructive' });
      return null;
    } finally {
      setLoading(false);
    }
  };

  return (
    <div className="flex min-w-0 items-center gap-1">
      <code className="min-w-0 flex-1 truncate font-mono text-xs" data-testid={`secret-value-${secret.name}`}>
        {shown && value !== null ? value : MASK}
      </code>
      <Button
        variant="ghost"
        size="icon-sm"
        disabled={loading}
        aria-label={shown ? `Hide ${secret.name}` : `Show ${secret.name}`}
        aria-pressed={shown}
        onClick={async () => {
          if (shown) return setShown(false);
          if ((await fetchValue()) !== null) setShown(true);
        }}
      >
        {shown ? <EyeOff /> : <Eye />}
      </Button>
      <Button
        variant="ghost"
        size="icon-sm"
        disabled={loading}
        aria-label={copied ? `Copied ${secret.name}` : `Copy ${secret.name}`}
        className={copied ? 'bg-primary/12 text-primary' : undefined}
        onClick={async () => {
          const text = await fetchValue();
          if (text !== null && (await copy(text))) {
            showToast({
              title: 'Copied to clipboard',
              description: `The value of ${secret.name}.`,
              variant: 'success',
            });
          }
        }}
      >
        {copied ? <Check /> : <Copy />}
      </Button>
    </div>
  );
}
