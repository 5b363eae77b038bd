import type { RecordRow, TableSchema } from '@basalt/shared';
import { useQueries } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTablesQuery } from '@/features/tables/tables.queries';
import { fetchRecordsPage } from './records.api';
import { recordKeys } from './records.keys';
import {
  findTable,
  labelColumnOf,
  labelText,
  type ReferenceLabels,
  type ReferenceTarget,
  referenceIdsOf,
} from './reference-labels';

// The reads behind reference cells: the reference columns of a schema resolved against the caller's tables, and
// the labels of a page's referenced rows, one call per reference column (reference-labels.ts says how).

/** useReferenceTargets resolves a schema's reference columns against the caller's tables. */
export function useReferenceTargets(schema: TableSchema): ReferenceTarget[] {
  const tables = useTablesQuery().data;
  return useMemo(
    () =>
      Object.entries(schema).flatMap(([column, definition]) => {
        const reference = definition.references;
        if (!reference) return [];
        const table = findTable(tables, reference.table);
        return [{ column, reference, table, labelColumn: table ? labelColumnOf(reference, table) : null }];
      }),
    [schema, tables],
  );
}

/** useReferenceLabels reads the labels of a page's references: one call per reference column with a label. */
export function useReferenceLabels(targets: readonly ReferenceTarget[], rows: readonly RecordRow[]): ReferenceLabels {
  const reads = targets.map((target) => ({ target, ids: referenceIdsOf(rows, target.column) }));
  const results = useQueries({
    queries: reads.map(({ target, ids }) => {
      return {
        queryKey: [...recordKeys.table(target.table?.id ?? 0), { labels: ids }],
        queryFn: ({ signal }: { signal: AbortSignal }) =>
          fetchRecordsPage(
            target.table ?? { id: 0, name: '' },
            { page: 1, pageSize: Math.max(ids.length, 1), filters: [['id', `in.(${ids.join(',')})`]] },
            signal,
          ),
        enabled: target.table !== undefined && target.labelColumn !== null && ids.length > 0,
        staleTime: 30_000,
      };
    }),
  });
  // Cheap beside drawing the page (at most one entry per row), so it is worked out again on each render.
  const labels = new Map<string, Map<number, string>>();
  reads.forEach(({ target }, index) => {
    const schema = target.table?.schema ?? {};
    const read = results[index]?.data?.rows ?? [];
    labels.set(target.column, new Map(read.map((row) => [row.id, labelText(row, target.labelColumn, schema)])));
  });
  return labels;
}
