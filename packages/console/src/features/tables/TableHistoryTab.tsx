import type { TableResponse } from '@basalt/shared';
import { AlertCircle, History } from 'lucide-react';
import { useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { RelativeTime } from '@/components/ui/relative-time';
import { Spinner } from '@/components/ui/spinner';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { errorMessage } from '@/lib/api-errors';
import { changeLabel, summarizeChange } from './history-summary';
import { useTableHistoryQuery } from './tables.queries';

const variantOf = (changeType: string) =>
  changeType.endsWith('DELETE') ? 'destructive' : changeType.endsWith('UPDATE') ? 'warning' : 'default';

/** TableHistoryTab lists a table's changes, newest first, ten per page. */
export function TableHistoryTab({ table }: { table: TableResponse }) {
  const [page, setPage] = useState(1);
  const history = useTableHistoryQuery(table.id, page);

  if (history.isPending) {
    return (
      <Card className="flex items-center justify-center py-14">
        <Spinner label="Loading history" />
      </Card>
    );
  }
  if (history.isError) {
    return (
      <Card>
        <EmptyState
          icon={AlertCircle}
          title="Failed to load history"
          description={errorMessage(history.error)}
          action={
            <Button variant="outline" size="sm" onClick={() => void history.refetch()}>
              Retry
            </Button>
          }
        />
      </Card>
    );
  }
  const { data, pagination } = history.data;
  if (data.length === 0) {
    return (
      <Card>
        <EmptyState
          icon={History}
          title="No history yet"
          description="Changes to this table and its records show here."
        />
      </Card>
    );
  }
  return (
    <Card className="overflow-hidden">
      <Table aria-label="History">
        <TableHeader>
          <TableRow className="hover:bg-transparent">
            <TableHead>When</TableHead>
            <TableHead>Change</TableHead>
            <TableHead>Record</TableHead>
            <TableHead>Details</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {data.map((change) => (
            <TableRow key={change.id}>
              <TableCell className="text-muted-foreground">
                <RelativeTime value={change.timestamp} />
              </TableCell>
              <TableCell>
                <Badge variant={variantOf(change.changeType)}>{changeLabel(change.changeType)}</Badge>
              </TableCell>
              <TableCell className="font-mono text-[13px] text-muted-foreground">{change.recordId ?? '—'}</TableCell>
              <TableCell className="max-w-80 truncate text-muted-foreground">{summarizeChange(change)}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      <div className="flex items-center justify-between gap-2 border-t px-4 py-3 text-sm sm:px-6">
        <span className="text-muted-foreground">
          Page {pagination.currentPage} of {Math.max(1, pagination.totalPages)}
        </span>
        <div className="flex gap-2">
          <Button variant="outline" size="sm" disabled={!pagination.hasPrevious} onClick={() => setPage((p) => p - 1)}>
            Previous
          </Button>
          <Button variant="outline" size="sm" disabled={!pagination.hasNext} onClick={() => setPage((p) => p + 1)}>
            Next
          </Button>
        </div>
      </div>
    </Card>
  );
}
