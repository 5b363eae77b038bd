import { ChevronLeft, ChevronRight, ChevronsLeft, ChevronsRight } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { NativeSelect } from '@/components/ui/native-select';

/** PAGE_SIZES are the page sizes the grid offers; the first is the default (the server reads at most 1,000). */
export const PAGE_SIZES = [25, 50, 100, 500, 1000] as const;

/** lastPageOf is the number of the last page (at least 1). */
export function lastPageOf(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}

/** rowRangeText says which records a page shows: "Showing 26–50 of 1,000". */
export function rowRangeText(page: number, pageSize: number, total: number): string {
  if (total === 0) return 'No records';
  const first = (page - 1) * pageSize + 1;
  const last = Math.min(page * pageSize, total);
  const n = (value: number) => value.toLocaleString('en-US');
  return `Showing ${n(first)}–${n(last)} of ${n(total)}`;
}

/** RecordsPager moves through a table's pages and changes the page size. */
export function RecordsPager({
  page,
  pageSize,
  total,
  onPageChange,
  onPageSizeChange,
}: {
  page: number;
  pageSize: number;
  total: number;
  onPageChange: (page: number) => void;
  onPageSizeChange: (pageSize: number) => void;
}) {
  const last = lastPageOf(total, pageSize);
  return (
    <nav
      aria-label="Pages"
      className="flex flex-col gap-3 border-t px-4 py-3 text-sm sm:flex-row sm:items-center sm:justify-between sm:px-6"
    >
      <p className="text-muted-foreground" aria-live="polite">
        {rowRangeText(page, pageSize, total)}
      </p>
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
        <label htmlFor="records-page-size" className="flex items-center gap-2 whitespace-nowrap text-muted-foreground">
          Rows per page
          <NativeSelect
            id="records-page-size"
            className="h-8 w-20"
            value={pageSize}
            onChange={(e) => onPageSizeChange(Number(e.target.value))}
          >
            {PAGE_SIZES.map((size) => (
              <option key={size} value={size}>
                {size}
              </option>
            ))}
          </NativeSelect>
        </label>
        <div className="flex items-center gap-1">
          <Button
            variant="outline"
            size="icon-sm"
            aria-label="First page"
            disabled={page <= 1}
            onClick={() => onPageChange(1)}
          >
            <ChevronsLeft />
          </Button>
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
            Page {page.toLocaleString('en-US')} of {last.toLocaleString('en-US')}
          </span>
          <Button
            variant="outline"
            size="icon-sm"
            aria-label="Next page"
            disabled={page >= last}
            onClick={() => onPageChange(page + 1)}
          >
            <ChevronRight />
          </Button>
          <Button
            variant="outline"
            size="icon-sm"
            aria-label="Last page"
            disabled={page >= last}
            onClick={() => onPageChange(last)}
          >
            <ChevronsRight />
          </Button>
        </div>
      </div>
    </nav>
  );
}
