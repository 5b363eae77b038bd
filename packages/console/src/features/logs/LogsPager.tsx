import type { LogsPagination } from '@basalt/shared';
import { ChevronLeft, ChevronRight } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { pagerItems } from './log-pages';

/**
 * LogsPager moves through the pages of /logs: Previous, the pages pagerItems picks, Next. A count that stopped at
 * its limit (`totalItemsCapped`) reads "More than 10,000 entries" and offers no last page.
 */
export function LogsPager({
  pagination,
  onPageChange,
}: {
  pagination: LogsPagination;
  onPageChange: (page: number) => void;
}) {
  const { currentPage, totalPages, totalItems, hasNext, hasPrevious, totalItemsCapped } = pagination;
  const count = totalItems.toLocaleString('en-US');
  return (
    <nav
      aria-label="Pages"
      className="flex flex-col items-center gap-3 border-t px-4 py-3 text-sm sm:flex-row sm:justify-between sm:px-6"
    >
      <p className="text-muted-foreground" aria-live="polite">
        {totalItemsCapped ? `More than ${count} entries` : `${count} ${totalItems === 1 ? 'entry' : 'entries'}`}
      </p>
      <div className="flex items-center gap-1">
        <Button
          variant="outline"
          size="icon-sm"
          aria-label="Previous page"
          disabled={!hasPrevious}
          onClick={() => onPageChange(currentPage - 1)}
        >
          <ChevronLeft />
        </Button>
        {pagerItems(currentPage, totalPages, { endKnown: !totalItemsCapped }).map((item) =>
          item.kind === 'gap' ? (
            <span key={`gap-${item.after}`} aria-hidden className="w-6 text-center text-muted-foreground">
              …
            </span>
          ) : (
            <Button
              key={item.page}
              variant={item.page === currentPage ? 'default' : 'ghost'}
              size="icon-sm"
              className="min-w-8 w-auto px-2 tabular-nums"
              aria-label={`Page ${item.page}`}
              aria-current={item.page === currentPage ? 'page' : undefined}
              onClick={() => onPageChange(item.page)}
            >
              {item.page}
            </Button>
          ),
        )}
        <Button
          variant="outline"
          size="icon-sm"
          aria-label="Next page"
          disabled={!hasNext}
          onClick={() => onPageChange(currentPage + 1)}
        >
          <ChevronRight />
        </Button>
      </div>
    </nav>
  );
}
