import { ChevronLeft, ChevronRight, ChevronsLeft, ChevronsRight } from 'lucide-react';
import type { ReactNode } from 'react';
import { cn } from '@/lib/cn';
import { Button } from './button';
import { NativeSelect } from './native-select';
import { pagerItems } from './pager-items';

// The console's one pager under a server-side list: what the page shows on the left (announced when it changes),
// then Previous and Next with, between them, "Page 2 of 40" or the page numbers (numbered); First and Last with
// `edges`; a page-size menu with `pageSize`.

const n = (value: number) => value.toLocaleString('en-US');

/** PageSizeChoice is the page-size menu of a pager: its value, the sizes offered, and how to change it. */
export interface PageSizeChoice {
  id: string;
  value: number;
  options: readonly number[];
  onChange: (size: number) => void;
}

/** Pager moves through the pages of a server-side list. */
export function Pager({
  summary,
  page,
  totalPages,
  onPageChange,
  hasPrevious = page > 1,
  hasNext = page < totalPages,
  numbered,
  edges = false,
  pageSize,
  label = 'Pages',
  className,
}: {
  summary: ReactNode;
  page: number;
  totalPages: number;
  onPageChange: (page: number) => void;
  hasPrevious?: boolean;
  hasNext?: boolean;
  /** Page number buttons instead of "Page x of y"; endKnown false when the count stopped at a limit. */
  numbered?: { endKnown: boolean };
  /** First page and Last page buttons. */
  edges?: boolean;
  pageSize?: PageSizeChoice;
  label?: string;
  className?: string;
}) {
  const last = Math.max(1, totalPages);
  const step = (name: string, target: number, enabled: boolean, icon: ReactNode) => (
    <Button variant="outline" size="icon-sm" aria-label={name} disabled={!enabled} onClick={() => onPageChange(target)}>
      {icon}
    </Button>
  );
  return (
    <nav
      aria-label={label}
      className={cn(
        'flex flex-col gap-3 border-t px-4 py-3 text-sm sm:flex-row sm:items-center sm:justify-between sm:px-6',
        className,
      )}
    >
      <p className="text-muted-foreground" aria-live="polite">
        {summary}
      </p>
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
        {pageSize && (
          <label htmlFor={pageSize.id} className="flex items-center gap-2 whitespace-nowrap text-muted-foreground">
            Rows per page
            <NativeSelect
              id={pageSize.id}
              className="h-8 w-20"
              value={pageSize.value}
              onChange={(e) => pageSize.onChange(Number(e.target.value))}
            >
              {pageSize.options.map((size) => (
                <option key={size} value={size}>
                  {size}
                </option>
              ))}
            </NativeSelect>
          </label>
        )}
        <div className="flex items-center gap-1">
          {edges && step('First page', 1, hasPrevious, <ChevronsLeft />)}
          {step('Previous page', page - 1, hasPrevious, <ChevronLeft />)}
          {numbered ? (
            pagerItems(page, totalPages, numbered).map((item) =>
              item.kind === 'gap' ? (
                <span key={`gap-${item.after}`} aria-hidden className="w-6 text-center text-muted-foreground">
                  …
                </span>
              ) : (
                <Button
                  key={item.page}
                  variant={item.page === page ? 'default' : 'ghost'}
                  size="icon-sm"
                  className="min-w-8 w-auto px-2 tabular-nums"
                  aria-label={`Page ${item.page}`}
                  aria-current={item.page === page ? 'page' : undefined}
                  onClick={() => onPageChange(item.page)}
                >
                  {item.page}
                </Button>
              ),
            )
          ) : (
            <span className="min-w-24 px-1 text-center whitespace-nowrap tabular-nums">
              Page {n(page)} of {n(last)}
            </span>
          )}
          {step('Next page', page + 1, hasNext, <ChevronRight />)}
          {edges && step('Last page', last, hasNext, <ChevronsRight />)}
        </div>
      </div>
    </nav>
  );
}

/** countOf reads a list's size for a pager's summary: "1 user", "1,000 users". */
export function countOf(total: number, noun: string): string {
  return `${n(total)} ${noun}${total === 1 ? '' : 's'}`;
}
