import { cn } from '@/lib/cn';

// Dates as the console shows them.

const UNITS: ReadonlyArray<[Intl.RelativeTimeFormatUnit, number]> = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
  ['second', 1],
];

function parse(value: string | number | Date | null | undefined): Date | 'empty' | 'invalid' {
  if (value === null || value === undefined || value === '') return 'empty';
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? 'invalid' : date;
}

/** formatRelativeTime says how long ago (or from now) a date is: "3 minutes ago", "yesterday", "just now". */
export function formatRelativeTime(value: string | number | Date | null | undefined, now = new Date()): string {
  const date = parse(value);
  if (date === 'empty') return 'Unknown';
  if (date === 'invalid') return 'Invalid date';
  const seconds = Math.round((date.getTime() - now.getTime()) / 1000);
  if (Math.abs(seconds) < 45) return 'just now';
  const format = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size || unit === 'second') return format.format(Math.round(seconds / size), unit);
  }
  return format.format(seconds, 'second');
}

/** formatDateTime is a date with its time in the reader's locale: "Mar 5, 2026, 14:02". */
export function formatDateTime(value: string | number | Date | null | undefined): string {
  const date = parse(value);
  if (date === 'empty') return 'Unknown';
  if (date === 'invalid') return 'Invalid date';
  return date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** formatDate is a date without its time: "Mar 5, 2026". */
export function formatDate(value: string | number | Date | null | undefined): string {
  const date = parse(value);
  if (date === 'empty') return 'Unknown';
  if (date === 'invalid') return 'Invalid date';
  return date.toLocaleDateString(undefined, { dateStyle: 'medium' });
}

/** RelativeTime shows "3 minutes ago" with the exact date and time as its tooltip. */
export function RelativeTime({ value, className }: { value: string | null | undefined; className?: string }) {
  const date = parse(value);
  return (
    <time
      dateTime={date instanceof Date ? date.toISOString() : undefined}
      title={date instanceof Date ? formatDateTime(date) : undefined}
      className={cn('whitespace-nowrap', className)}
    >
      {formatRelativeTime(value)}
    </time>
  );
}
