import { Eye, EyeOff } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { CopyButton } from '@/components/ui/copy-button';
import { Input } from '@/components/ui/input';

// A masked value shows as dots of a fixed length, so its length tells nothing.
const MASK = '•'.repeat(12);

/** SecretField shows a key read-only with a copy button; a `masked` key stays dots until revealed. */
export function SecretField({
  id,
  label,
  value,
  masked = false,
}: {
  id: string;
  label: string;
  value: string;
  masked?: boolean;
}) {
  const [revealed, setRevealed] = useState(!masked);
  return (
    <div className="grid gap-2">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <div className="flex gap-2">
        <Input
          id={id}
          readOnly
          value={revealed ? value : MASK}
          className="font-mono text-[13px]"
          onFocus={(e) => revealed && e.currentTarget.select()}
        />
        {masked && (
          <Button
            type="button"
            variant="outline"
            size="icon"
            aria-label={revealed ? `Hide ${label}` : `Reveal ${label}`}
            aria-pressed={revealed}
            onClick={() => setRevealed((v) => !v)}
          >
            {revealed ? <EyeOff /> : <Eye />}
          </Button>
        )}
        <CopyButton value={value} label={`Copy ${label}`} copiedLabel="Copied" size="icon" />
      </div>
    </div>
  );
}
