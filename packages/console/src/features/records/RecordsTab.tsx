import type { RecordRow, TableResponse } from '@basalt/shared';
import { AlertCircle, Rows3 } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { Skeleton } from '@/components/ui/skeleton';
import { errorMessage } from '@/lib/api-errors';
import { cn } from '@/lib/cn';
import { RecordsGrid } from './RecordsGrid';
import { RecordsPager } from './RecordsPager';
import { useRecordsPageQuery } from './records.queries';
import { useClampToLastPage, useRecordsPaging } from './useRecordsPaging';

/** RecordsTab is the table page's Data tab: the records grid, a page at a time, with its states. */
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
  const records = useRecordsPageQuery(table, paging.page, paging.pageSize, paging.sort);
  useClampToLastPage(paging, records.data?.total);

  let body: ReactNode;
  if (records.isPending) {
    body = (
      <div className="grid gap-3 p-4 sm:p-6" role="status" aria-busy="true" aria-label="Loading records">
        {Array.from({ length: 5 }, (_, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity.
          <Skeleton key={i} className="h-6 w-full" />
        ))}
      </div>
    );
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
            onEdit={onEdit}
            onDelete={onDelete}
          />
        </div>
        <RecordsPager
          page={paging.page}
          pageSize={paging.pageSize}
          total={records.data.total}
          onPageChange={paging.setPage}
          onPageSizeChange={paging.setPageSize}
        />
      </>
    );
  }
  return <Card className="overflow-hidden">{body}</Card>;
}
