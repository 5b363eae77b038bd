import type { ComponentProps } from 'react';
import { cn } from '@/lib/cn';

/** Table is a data table that scrolls sideways inside its own box when it is wider than the screen. */
export function Table({
  className,
  containerClassName,
  ...props
}: ComponentProps<'table'> & { containerClassName?: string }) {
  return (
    <div className={cn('relative w-full overflow-x-auto', containerClassName)}>
      <table className={cn('w-full caption-bottom text-sm', className)} {...props} />
    </div>
  );
}

/** TableHeader is the table's head row group. */
export function TableHeader({ className, ...props }: ComponentProps<'thead'>) {
  return <thead className={cn('[&_tr]:border-b', className)} {...props} />;
}

/** TableBody is the table's rows. */
export function TableBody({ className, ...props }: ComponentProps<'tbody'>) {
  return <tbody className={cn('[&_tr:last-child]:border-0', className)} {...props} />;
}

/** TableRow is one row; pass onClick for a row that opens something (it then shows a pointer). */
export function TableRow({ className, ...props }: ComponentProps<'tr'>) {
  return (
    <tr
      className={cn(
        'border-b transition-colors hover:bg-muted/40 data-[state=selected]:bg-muted',
        props.onClick && 'cursor-pointer',
        className,
      )}
      {...props}
    />
  );
}

/** TableHead is a column heading. */
export function TableHead({ className, ...props }: ComponentProps<'th'>) {
  return (
    <th
      className={cn(
        'h-10 px-3 text-left align-middle text-xs font-medium whitespace-nowrap text-muted-foreground first:pl-4 last:pr-4 sm:first:pl-6 sm:last:pr-6',
        className,
      )}
      {...props}
    />
  );
}

/** TableCell is one cell. */
export function TableCell({ className, ...props }: ComponentProps<'td'>) {
  return (
    <td
      className={cn('px-3 py-2.5 align-middle first:pl-4 last:pr-4 sm:first:pl-6 sm:last:pr-6', className)}
      {...props}
    />
  );
}
