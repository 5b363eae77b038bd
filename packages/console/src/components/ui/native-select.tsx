import { ChevronDown } from 'lucide-react';
import type { ComponentProps } from 'react';
import { cn } from '@/lib/cn';

/**
 * NativeSelect is the browser's own select, styled like an Input: it opens the phone's picker on mobile,
 * works with react-hook-form's register, and needs no portal.
 */
export function NativeSelect({
  className,
  containerClassName,
  children,
  ...props
}: ComponentProps<'select'> & { containerClassName?: string }) {
  return (
    <div className={cn('relative w-full min-w-0', containerClassName)}>
      <select
        className={cn(
          'flex h-9 w-full min-w-0 appearance-none rounded-md border border-input bg-card py-1 pr-8 pl-3 text-sm shadow-xs transition-colors outline-none focus-visible:border-ring focus-visible:ring-2 focus-visible:ring-ring/30 disabled:cursor-not-allowed disabled:opacity-50 aria-invalid:border-destructive',
          className,
        )}
        {...props}
      >
        {children}
      </select>
      <ChevronDown
        aria-hidden
        className="pointer-events-none absolute top-1/2 right-2.5 size-4 -translate-y-1/2 text-muted-foreground"
      />
    </div>
  );
}
