import type { ColumnType, TableResponse } from '@basalt/shared';
import { useInfiniteQuery } from '@tanstack/react-query';
import { type FilterParams, fetchRecordsPage } from './records.api';
import { recordKeys } from './records.keys';

// The reference picker's search over the referenced table, done by the server a page at a time: a text label is
// matched with `ilike` (`*tea*`), a whole number also finds the row of that id; rows come ordered by the label.

/** PICKER_PAGE_SIZE is how many rows the picker loads at a time. */
export const PICKER_PAGE_SIZE = 25;

/**
 * searchFiltersOf turns what was typed into the list filters of the search; null when nothing can match (a word
 * typed against a label that is not text). An empty search lists every row.
 */
export function searchFiltersOf(
  label: string | null,
  labelType: ColumnType | undefined,
  typed: string,
): FilterParams | null {
  // `*` is the pattern's wildcard and `"` would end the quoted value: neither is searched for.
  const text = typed.trim().replace(/[*"\\]/g, '');
  if (text === '') return [];
  const textLabel = label !== null && labelType === 'text';
  if (/^\d{1,15}$/.test(text)) {
    return textLabel ? [['or', `(id.eq.${text},${label}.ilike."*${text}*")`]] : [['id', `eq.${text}`]];
  }
  return textLabel ? [[label, `ilike.*${text}*`]] : null;
}

/** useReferenceSearch pages through the referenced table's rows that match the search. */
export function useReferenceSearch(table: TableResponse, label: string | null, typed: string) {
  const filters = searchFiltersOf(label, label === null ? undefined : table.schema[label]?.type, typed);
  const sort = label !== null && label !== 'id' ? { column: label, direction: 'asc' as const } : null;
  return useInfiniteQuery({
    queryKey: [...recordKeys.table(table.id), { picker: filters, sort }],
    queryFn: ({ pageParam, signal }) =>
      fetchRecordsPage(table, { page: pageParam, pageSize: PICKER_PAGE_SIZE, sort, filters: filters ?? [] }, signal),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (pages.length * PICKER_PAGE_SIZE < last.total ? pages.length + 1 : undefined),
    enabled: filters !== null,
    staleTime: 10_000,
  });
}
