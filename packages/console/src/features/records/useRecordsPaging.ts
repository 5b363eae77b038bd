import { useCallback, useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { lastPageOf, PAGE_SIZES } from './RecordsPager';

function positiveInt(text: string | null): number | null {
  const n = Number(text);
  return Number.isSafeInteger(n) && n >= 1 ? n : null;
}

/** RecordsPaging is the grid's page (1-based), its size, and how to change them. */
export interface RecordsPaging {
  page: number;
  pageSize: number;
  setPage: (page: number) => void;
  setPageSize: (size: number) => void;
}

/**
 * useRecordsPaging keeps the grid's page and page size in the address (?page=3&size=50), so a reload or a
 * shared link opens the same page.
 */
export function useRecordsPaging(): RecordsPaging {
  const [params, setParams] = useSearchParams();
  const page = positiveInt(params.get('page')) ?? 1;
  const requestedSize = positiveInt(params.get('size'));
  const pageSize = PAGE_SIZES.find((size) => size === requestedSize) ?? PAGE_SIZES[0];

  const update = useCallback(
    (next: { page?: number; size?: number }) =>
      setParams(
        (current) => {
          const copy = new URLSearchParams(current);
          if (next.page !== undefined) {
            if (next.page <= 1) copy.delete('page');
            else copy.set('page', String(next.page));
          }
          if (next.size !== undefined) {
            if (next.size === PAGE_SIZES[0]) copy.delete('size');
            else copy.set('size', String(next.size));
          }
          return copy;
        },
        { replace: true },
      ),
    [setParams],
  );

  const setPage = useCallback((next: number) => update({ page: next }), [update]);
  // A new page size starts again from the first page.
  const setPageSize = useCallback((size: number) => update({ page: 1, size }), [update]);
  return { page, pageSize, setPage, setPageSize };
}

/** useClampToLastPage moves a page past the end (records were deleted) to the last page once the total is known. */
export function useClampToLastPage({ page, pageSize, setPage }: RecordsPaging, total: number | undefined): void {
  useEffect(() => {
    if (total === undefined) return;
    const last = lastPageOf(total, pageSize);
    if (page > last) setPage(last);
  }, [total, page, pageSize, setPage]);
}
