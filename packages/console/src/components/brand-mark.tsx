import { cn } from '@/lib/cn';

/** BrandMark is Basalt's hexagon logo (basalt forms hexagonal columns). */
export function BrandMark({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" aria-hidden className={cn('size-7', className)}>
      <path className="fill-primary" d="M16 2.5 28 9.25v13.5L16 29.5 4 22.75V9.25z" />
      <path className="fill-primary-foreground" d="M16 9.5 22 13v6l-6 3.5-6-3.5v-6z" />
    </svg>
  );
}
