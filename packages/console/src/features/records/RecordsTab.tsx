import type { RecordRow, TableResponse } from '@basalt/shared';
import { AlertCircle, Rows3, SearchX } from 'lucide-react';
import { type ReactNode, useMemo, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { EmptyState } from '@/components/ui/empty-state';
import { Pager } from '@/components/ui/pager';
import { Skeleton } from '@/components/ui/skeleton';
import { errorMessage } from '@/lib/api-errors';
import { cn } from '@/lib/cn';
import { RecordsGrid } from './RecordsGrid';
import { RecordsToolbar } from './RecordsToolbar';
import { rowPath } from './ReferencedByList';
import { useDeleteRecordsMutation, useRecordsPageQuery, useUpdateRecordMutation } from './records.queries';
import { toServerFilters } from './records-filters';
import { useReferenceLabels, useReferenceTargets } from './reference-labels.queries';
import { lastPageOf, PAGE_SIZES, rowRangeText, useClampToLastPage, useRecordsPaging } from './useRecordsPaging';

function LoadingRows() {
  return (
    <div className="grid gap-3 p-4 sm:p-6" role="status" aria-busy="true" aria-label="Loading records">
      {Array.from({ length: 5 }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity.
        <Skeleton key={i} className="h-6 w-full" />
      ))}
    </div>
  );
}

/**
 * RecordsTab is the table page's Data tab: the toolbar (filters, CSV import and export, bulk delete), the records
 * grid a page at a time with cells edited in place, and its states. The check boxes select records of the page in
 * view; a new page, sort or filter clears them.
 */
export function RecordsTab({
  table,
  onAdd,
  onEdit,
  onDelete,
}: {
  table: TableResponse;
  /** The actions are absent when the caller's project role may not change records. */
  onAdd?: () => void;
  onEdit?: (record: RecordRow) => void;
  onDelete?: (record: RecordRow) => void;
}) {
  const paging = useRecordsPaging();
  const serverFilters = useMemo(() => toServerFilters(paging.filters, table.schema), [paging.filters, table.schema]);
  const records = useRecordsPageQuery(table, paging.page, paging.pageSize, paging.sort, serverFilters);
  useClampToLastPage(paging, records.data?.total);
  const referenceTargets = useReferenceTargets(table.schema);
  const referenceLabels = useReferenceLabels(referenceTargets, records.data?.rows ?? []);
  const canWrite = onEdit !== undefined;
  const update = useUpdateRecordMutation(table);
  const bulkDelete = useDeleteRecordsMutation(table);
  const view = JSON.stringify([paging.page, paging.pageSize, paging.sort, serverFilters]);
  const [selection, setSelection] = useState<{ view: string; ids: ReadonlySet<number> }>({ view, ids: new Set() });
  const selected = selection.view === view ? selection.ids : new Set<number>();
  const [confirming, setConfirming] = useState(false);

  let body: ReactNode;
  if (records.isPending) {
    body = <LoadingRows />;
  } else if (records.isError) {
    body = (
      <EmptyState
        icon={AlertCircle}
        title="Failed to load records"
        description={errorMessage(records.error)}
        action={
          <Button variant="outline" size="sm" onClick={() => void records.refetch()}>
            Retry
          </Button>
        }
      />
    );
  } else if (records.data.total === 0 && paging.filters.length > 0) {
    body = (
      <EmptyState
        icon={SearchX}
        title="No records match these filters"
        action={
          <Button variant="outline" size="sm" onClick={() => paging.setFilters([])}>
            Clear filters
          </Button>
        }
      />
    );
  } else if (records.data.total === 0) {
    body = (
      <EmptyState
        icon={Rows3}
        title="No records found"
        action={
          onAdd && (
            <Button size="sm" onClick={onAdd}>
              Add your first record
            </Button>
          )
        }
      />
    );
  } else {
    body = (
      <>
        <div className={cn('transition-opacity', records.isPlaceholderData && 'opacity-60')}>
          <RecordsGrid
            schema={table.schema}
            rows={records.data.rows}
            sort={paging.sort}
            onSort={paging.toggleSort}
            selection={
              canWrite
                ? {
                    selected,
                    onSelect: (ids, checked) => {
                      const next = new Set(selected);
                      for (const id of ids) {
                        if (checked) next.add(id);
                        else next.delete(id);
                      }
                      setSelection({ view, ids: next });
                    },
                  }
                : undefined
            }
            onSaveCell={
              canWrite
                ? (record, column, value) => update.mutateAsync({ id: record.id, payload: { [column]: value } })
                : undefined
            }
            onEdit={onEdit}
            onDelete={onDelete}
            references={{ targets: referenceTargets, labels: referenceLabels }}
            rowHref={(record) => rowPath(table.id, record.id)}
          />
        </div>
        <Pager
          summary={rowRangeText(paging.page, paging.pageSize, records.data.total)}
          page={paging.page}
          totalPages={lastPageOf(records.data.total, paging.pageSize)}
          onPageChange={paging.setPage}
          edges
          pageSize={{
            id: 'records-page-size',
            value: paging.pageSize,
            options: PAGE_SIZES,
            onChange: paging.setPageSize,
          }}
        />
      </>
    );
  }
  const count = selected.size;
  return (
    <Card className="overflow-hidden">
      <RecordsToolbar
        table={table}
        filters={paging.filters}
        serverFilters={serverFilters}
        onFiltersChange={paging.setFilters}
        selectedCount={count}
        onDeleteSelected={() => setConfirming(true)}
        canWrite={canWrite}
      />
      {body}
      <ConfirmDialog
        open={confirming}
        title={`Delete ${count.toLocaleString('en-US')} ${count === 1 ? 'record' : 'records'}?`}
        description={`The selected records will be deleted from ${table.name}. History keeps them, so each delete can be reverted there.`}
        confirmLabel="Delete"
        onConfirm={() => bulkDelete.mutate([...selected], { onSuccess: () => setSelection({ view, ids: new Set() }) })}
        onClose={() => setConfirming(false)}
      />
    </Card>
  );
}
