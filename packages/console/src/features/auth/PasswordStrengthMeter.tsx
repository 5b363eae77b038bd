import { passwordRules, passwordStrength } from '@basalt/shared';
import { Check, X } from 'lucide-react';
import { cn } from '@/lib/cn';

const BAND_STYLES = {
  'Very weak password': { bar: 'bg-destructive', text: 'text-destructive' },
  'Weak password': { bar: 'bg-orange-500', text: 'text-orange-600 dark:text-orange-400' },
  'Medium strength password': { bar: 'bg-amber-400', text: 'text-amber-600 dark:text-amber-400' },
  'Strong password': { bar: 'bg-primary', text: 'text-primary' },
} as const;

/** PasswordStrengthMeter shows the live score, its band and the five-rule checklist. */
export function PasswordStrengthMeter({ password }: { password: string }) {
  const { score, label } = passwordStrength(password);
  const rounded = Math.round(score);
  const style = BAND_STYLES[label];
  return (
    <div className="grid gap-2.5 rounded-lg border bg-muted/40 p-3">
      {password.length > 0 && (
        <div className="grid gap-1.5">
          <div
            role="progressbar"
            aria-label="Password strength"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={rounded}
            aria-valuetext={label}
            className="h-1.5 overflow-hidden rounded-full bg-border"
          >
            <div className={cn('h-full rounded-full transition-all', style.bar)} style={{ width: `${rounded}%` }} />
          </div>
          <p className={cn('text-xs font-medium', style.text)}>{label}</p>
        </div>
      )}
      <ul aria-label="Password requirements" className="grid gap-1 text-xs">
        {passwordRules.map((rule) => {
          const met = rule.test(password);
          return (
            <li
              key={rule.id}
              data-state={met ? 'met' : 'unmet'}
              className={cn('flex items-center gap-1.5', met ? 'text-foreground' : 'text-muted-foreground')}
            >
              {met ? (
                <Check aria-hidden className="size-3.5 text-primary" />
              ) : (
                <X aria-hidden className="size-3.5 opacity-60" />
              )}
              <span className="sr-only">{met ? 'Done: ' : 'Missing: '}</span>
              <span>{rule.label}</span>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
