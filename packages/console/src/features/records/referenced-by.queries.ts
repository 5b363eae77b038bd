import type { TableResponse } from '@basalt/shared';
import { useQueries, useQuery } from '@tanstack/react-query';
import { useTablesQuery } from '@/features/tables/tables.queries';
import { fetchRecord, fetchRecordsPage, type TableRef } from './records.api';
import { recordKeys } from './records.keys';
import { labelColumnOf } from './reference-labels';

// What a row page lists under "Referenced by": for every column of the caller's tables that references this
// row's table, how many rows point at this row and the first of them, read with one call per such column
// (`column=eq.<id>`, with the total) under that table's records key, so writes there refresh it.

/** REFERENCED_BY_PAGE is how many referring rows a row page shows per column. */
export const REFERENCED_BY_PAGE = 10;

/** Referrer is one column of one table that references a table. */
export interface Referrer {
  table: TableResponse;
  column: string;
  /** The column the referring rows are shown by (their own table's label: its first text column). */
  labelColumn: string | null;
}

/** referrersOf lists the columns of `tables` that reference the table named `name` (its own included: a tree). */
export function referrersOf(tables: readonly TableResponse[], name: string): Referrer[] {
  const lower = name.toLowerCase();
  return tables.flatMap((table) =>
    Object.entries(table.schema).flatMap(([column, definition]) =>
      definition.references?.table.toLowerCase() === lower
        ? [{ table, column, labelColumn: labelColumnOf({ table: table.name, onDelete: 'restrict' }, table) }]
        : [],
    ),
  );
}

/** useRecordQuery reads one record of a table for its row page. */
export function useRecordQuery(table: TableRef | undefined, id: number) {
  return useQuery({
    queryKey: [...recordKeys.table(table?.id ?? 0), { record: id }],
    queryFn: ({ signal }) => fetchRecord(table ?? { id: 0, name: '' }, id, signal),
    enabled: table !== undefined && id > 0,
  });
}

/** useReferencedBy reads, per referring column, the count and first page of the rows pointing at a row. */
export function useReferencedBy(table: TableResponse | undefined, id: number) {
  const tables = useTablesQuery().data;
  const referrers = table && tables ? referrersOf(tables, table.name) : [];
  const results = useQueries({
    queries: referrers.map((referrer) => {
      const filters = [[referrer.column, `eq.${id}`]] as const;
      return {
        queryKey: [...recordKeys.table(referrer.table.id), { referencedBy: referrer.column, id }],
        queryFn: ({ signal }: { signal: AbortSignal }) =>
          fetchRecordsPage(referrer.table, { page: 1, pageSize: REFERENCED_BY_PAGE, filters }, signal),
        enabled: id > 0,
      };
    }),
  });
  return referrers.map((referrer, index) => ({ referrer, result: results[index] }));
}
