import type { RecordRow, TableResponse } from '@basalt/shared';
import { ArrowLeft, SearchX } from 'lucide-react';
import { Link, useParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { EmptyState, LoadErrorState } from '@/components/ui/empty-state';
import { Skeleton } from '@/components/ui/skeleton';
import { tableIdParam } from '@/features/tables/TableDetailPage';
import { useTableQuery } from '@/features/tables/tables.queries';
import { errorStatus } from '@/lib/api-errors';
import { ReferencedByList, rowPath } from './ReferencedByList';
import { formatCellValue } from './record-values';
import { labelColumnOf, labelText } from './reference-labels';
import { useReferenceLabels, useReferenceTargets } from './reference-labels.queries';
import { useRecordQuery } from './referenced-by.queries';

// A row's own page (/tables/:id/rows/:rowId): its values, each reference shown by the referenced row's label and
// linked to that row's page, and the rows of other tables (or of its own, a tree) that reference it.

function RecordValues({ table, record }: { table: TableResponse; record: RecordRow }) {
  const targets = useReferenceTargets(table.schema);
  const labels = useReferenceLabels(targets, [record]);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Values</CardTitle>
      </CardHeader>
      <CardContent>
        <dl className="grid gap-x-6 gap-y-3 sm:grid-cols-[minmax(8rem,auto)_1fr]">
          {Object.entries(table.schema).map(([column, definition]) => {
            const value = record[column];
            const target = targets.find((t) => t.column === column);
            return (
              <div key={column} className="grid gap-0.5 sm:contents">
                <dt className="font-mono text-[13px] text-muted-foreground">{column}</dt>
                <dd className="min-w-0 text-sm break-words">
                  {target?.table && typeof value === 'number' ? (
                    <Link
                      to={rowPath(target.table.id, value)}
                      className="inline-flex items-baseline gap-1.5 hover:underline"
                    >
                      {labels.get(column)?.get(value) && <span>{labels.get(column)?.get(value)}</span>}
                      <span className="font-mono text-xs text-muted-foreground">#{value}</span>
                    </Link>
                  ) : (
                    formatCellValue(value, definition.type) || <span className="text-muted-foreground">(empty)</span>
                  )}
                </dd>
              </div>
            );
          })}
        </dl>
      </CardContent>
    </Card>
  );
}

function RecordDetail({ table, rowId }: { table: TableResponse; rowId: number }) {
  const record = useRecordQuery(table, rowId);
  if (record.isPending) return <Skeleton className="h-40 w-full" />;
  if (record.isError) {
    return errorStatus(record.error) === 404 ? (
      <EmptyState icon={SearchX} title={`${table.name} has no row ${rowId}`} />
    ) : (
      <LoadErrorState title="Failed to load the row" error={record.error} onRetry={() => void record.refetch()} />
    );
  }
  const label = labelText(record.data, labelColumnOf({ table: table.name, onDelete: 'restrict' }, table), table.schema);
  return (
    <>
      {label && <p className="-mt-4 text-sm text-muted-foreground">{label}</p>}
      <RecordValues table={table} record={record.data} />
      <ReferencedByList table={table} rowId={rowId} />
    </>
  );
}

/** RecordPage is the page of one row of a table. */
export function RecordPage() {
  const params = useParams();
  const tableId = tableIdParam(params.id);
  const rowId = tableIdParam(params.rowId);
  const table = useTableQuery(tableId);
  return (
    <div className="grid grid-cols-1 gap-6">
      <header className="grid gap-3">
        <Button asChild variant="ghost" size="sm" className="-ml-2 w-fit text-muted-foreground">
          <Link to={`/tables/${tableId}`}>
            <ArrowLeft />
            Back to {table.data?.name ?? 'the table'}
          </Link>
        </Button>
        <h1 className="font-mono text-2xl font-semibold tracking-tight break-all">
          {table.data?.name ?? '…'} <span className="text-muted-foreground">#{rowId}</span>
        </h1>
      </header>
      {table.isPending && <Skeleton className="h-40 w-full" />}
      {table.isError && (
        <LoadErrorState title="Failed to load the table" error={table.error} onRetry={() => void table.refetch()} />
      )}
      {table.data && <RecordDetail table={table.data} rowId={rowId} />}
    </div>
  );
}
