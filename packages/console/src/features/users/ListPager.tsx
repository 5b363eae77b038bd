import { ChevronLeft, ChevronRight } from 'lucide-react';
import { Button } from '@/components/ui/button';

/** ListPager moves through the pages of a server-side list: "Page 2 of 40 · 1,000 users". */
export function ListPager({
  page,
  totalPages,
  totalItems,
  noun,
  onPageChange,
}: {
  page: number;
  totalPages: number;
  totalItems: number;
  noun: string;
  onPageChange: (page: number) => void;
}) {
  const n = (value: number) => value.toLocaleString('en-US');
  return (
    <nav aria-label="Pages" className="flex items-center justify-between gap-3 border-t px-4 py-3 text-sm sm:px-6">
      <p className="text-muted-foreground" aria-live="polite">
        {n(totalItems)} {noun}
        {totalItems === 1 ? '' : 's'}
      </p>
      <div className="flex items-center gap-1">
        <Button
          variant="outline"
          size="icon-sm"
          aria-label="Previous page"
          disabled={page <= 1}
          onClick={() => onPageChange(page - 1)}
        >
          <ChevronLeft />
        </Button>
        <span className="min-w-24 px-1 text-center whitespace-nowrap tabular-nums">
          Page {n(page)} of {n(totalPages)}
        </span>
        <Button
          variant="outline"
          size="icon-sm"
          aria-label="Next page"
          disabled={page >= totalPages}
          onClick={() => onPageChange(page + 1)}
        >
          <ChevronRight />
        </Button>
      </div>
    </nav>
  );
}
