import { useCallback, useEffect, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import type { RecordsSort } from './records.api';
import { filterParam, parseFilterParam, type RecordFilter } from './records-filters';

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

function positiveInt(text: string | null): number | null {
  const n = Number(text);
  return Number.isSafeInteger(n) && n >= 1 ? n : null;
}

/** RecordsPaging is the grid's page (1-based), its size, its sort, and how to change them. */
export interface RecordsPaging {
  page: number;
  pageSize: number;
  /** null: by id, oldest first. */
  sort: RecordsSort | null;
  /** The filters the records must match, all of them. */
  filters: RecordFilter[];
  setPage: (page: number) => void;
  /** setFilters replaces the filters and goes back to the first page. */
  setFilters: (filters: RecordFilter[]) => void;
  setPageSize: (size: number) => void;
  /** toggleSort sorts by a column ascending, then descending, then by id again; from the first page. */
  toggleSort: (column: string) => void;
}

const COLUMN_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

/**
 * useRecordsPaging keeps the grid's page, page size, sort and filters in the address
 * (?page=3&size=50&sort=qty&dir=desc&filter=qty:gte:5), so a reload or a shared link opens the same page.
 */
export function useRecordsPaging(): RecordsPaging {
  const [params, setParams] = useSearchParams();
  const page = positiveInt(params.get('page')) ?? 1;
  const requestedSize = positiveInt(params.get('size'));
  const pageSize = PAGE_SIZES.find((size) => size === requestedSize) ?? PAGE_SIZES[0];
  const sortColumn = params.get('sort');
  const direction: RecordsSort['direction'] = params.get('dir') === 'desc' ? 'desc' : 'asc';
  const sort = useMemo(
    () => (sortColumn && COLUMN_NAME.test(sortColumn) ? { column: sortColumn, direction } : null),
    [sortColumn, direction],
  );
  // Keyed by the parameters' text, so the list keeps its identity while they stay the same.
  const filterTexts = JSON.stringify(params.getAll('filter'));
  const filters = useMemo(
    () =>
      (JSON.parse(filterTexts) as string[]).flatMap((text) => {
        const filter = parseFilterParam(text);
        return filter ? [filter] : [];
      }),
    [filterTexts],
  );

  const update = useCallback(
    (next: { page?: number; size?: number; sort?: RecordsSort | null; filters?: RecordFilter[] }) =>
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
          if (next.sort !== undefined) {
            copy.delete('sort');
            copy.delete('dir');
            if (next.sort) copy.set('sort', next.sort.column);
            if (next.sort?.direction === 'desc') copy.set('dir', 'desc');
          }
          if (next.filters !== undefined) {
            copy.delete('filter');
            for (const filter of next.filters) copy.append('filter', filterParam(filter));
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
  const toggleSort = useCallback(
    (column: string) => {
      const next: RecordsSort | null =
        sort?.column !== column
          ? { column, direction: 'asc' }
          : sort.direction === 'asc'
            ? { column, direction: 'desc' }
            : null;
      update({ page: 1, sort: next });
    },
    [sort, update],
  );
  const setFilters = useCallback((list: RecordFilter[]) => update({ page: 1, filters: list }), [update]);
  return { page, pageSize, sort, filters, setPage, setPageSize, toggleSort, setFilters };
}

/** useClampToLastPage moves a page past the end (records were deleted) to the last page once the total is known. */
export function useClampToLastPage({ page, pageSize, setPage }: RecordsPaging, total: number | undefined): void {
  useEffect(() => {
    if (total === undefined) return;
    const last = lastPageOf(total, pageSize);
    if (page > last) setPage(last);
  }, [total, page, pageSize, setPage]);
}
