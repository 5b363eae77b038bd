import type { ComponentProps } from 'react';
import { cn } from '@/lib/cn';

/** Skeleton is a pulsing placeholder where content is loading. */
export function Skeleton({ className, ...props }: ComponentProps<'div'>) {
  return (
    <div data-slot="skeleton" aria-hidden className={cn('animate-pulse rounded-md bg-muted', className)} {...props} />
  );
}
