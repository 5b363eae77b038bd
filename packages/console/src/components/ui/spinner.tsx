import { LoaderCircle } from 'lucide-react';
import { cn } from '@/lib/cn';

/** Spinner is a busy indicator with an accessible label. */
export function Spinner({ className, label = 'Loading' }: { className?: string; label?: string }) {
  return (
    <span role="status" aria-label={label} className="inline-flex">
      <LoaderCircle aria-hidden className={cn('size-6 animate-spin text-muted-foreground', className)} />
    </span>
  );
}

/** CenteredSpinner fills its container (or the screen) with a centred spinner. */
export function CenteredSpinner({ fullScreen = false, label }: { fullScreen?: boolean; label?: string }) {
  return (
    <div className={cn('flex w-full items-center justify-center', fullScreen ? 'min-h-dvh' : 'min-h-[50vh]')}>
      <Spinner className="size-8" label={label} />
    </div>
  );
}
