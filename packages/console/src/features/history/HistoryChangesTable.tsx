import { Undo2 } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { RelativeTime } from '@/components/ui/relative-time';
import { SkeletonTableRows } from '@/components/ui/skeleton-table-rows';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { AppUserBadge, ChangeBadge } from './ChangeBadge';
import { HistoryLoadFailedCard, NoHistoryCard } from './HistoryStateCards';
import { useRevertChangeMutation, useTableHistoryQuery } from './history.queries';
import { summarizeChange } from './history-summary';

const SKELETON_CELLS = [
  { skeleton: 'h-4 w-10', cell: 'hidden sm:table-cell' },
  { skeleton: 'h-4 w-28' },
  { skeleton: 'h-5 w-24' },
  { skeleton: 'h-4 w-8', cell: 'hidden md:table-cell' },
  { skeleton: 'h-4 w-40', cell: 'hidden sm:table-cell' },
  { skeleton: 'ml-auto h-8 w-20' },
];

/**
 * HistoryChangesTable is the Table View: a table's changes as rows, newest first, ten per page, with Revert. It
 * steps page by page with the server's cursors (the `before` of each page it went through), so a page deep in a
 * long history is as quick to load as the first.
 */
export function HistoryChangesTable({ tableId }: { tableId: number }) {
  const [cursors, setCursors] = useState<number[]>([]);
  const history = useTableHistoryQuery(tableId, cursors.at(-1) ?? null);
  const revert = useRevertChangeMutation();

  if (history.isError) {
    return <HistoryLoadFailedCard error={history.error} onRetry={() => void history.refetch()} />;
  }
  if (history.data?.data.length === 0) return <NoHistoryCard />;
  const pagination = history.data?.pagination;
  return (
    <Card className="overflow-hidden">
      <Table aria-label="Changes">
        <TableHeader>
          <TableRow className="hover:bg-transparent">
            <TableHead className="hidden w-16 sm:table-cell">Version</TableHead>
            <TableHead>When</TableHead>
            <TableHead>Change</TableHead>
            <TableHead className="hidden md:table-cell">Record</TableHead>
            <TableHead className="hidden sm:table-cell">Details</TableHead>
            <TableHead className="text-right sm:w-24">Actions</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {history.isPending ? (
            <SkeletonTableRows rows={5} cells={SKELETON_CELLS} />
          ) : (
            history.data.data.map((change) => (
              <TableRow key={change.id}>
                <TableCell className="hidden font-mono text-[13px] text-muted-foreground sm:table-cell">
                  #{change.id}
                </TableCell>
                <TableCell className="text-muted-foreground">
                  <RelativeTime value={change.timestamp} />
                </TableCell>
                <TableCell>
                  <div className="flex flex-wrap items-center gap-1.5">
                    <ChangeBadge change={change} />
                    <AppUserBadge change={change} />
                  </div>
                </TableCell>
                <TableCell className="hidden font-mono text-[13px] text-muted-foreground md:table-cell">
                  {change.recordId ?? '—'}
                </TableCell>
                <TableCell className="hidden max-w-80 truncate text-muted-foreground sm:table-cell">
                  {summarizeChange(change)}
                </TableCell>
                <TableCell className="text-right">
                  <Button
                    variant="ghost"
                    size="sm"
                    aria-label={`Revert change ${change.id}`}
                    disabled={revert.isPending && revert.variables?.id === change.id}
                    onClick={() => revert.mutate({ id: change.id, tableId: change.tableId })}
                  >
                    <Undo2 />
                    <span className="hidden sm:inline">Revert</span>
                  </Button>
                </TableCell>
              </TableRow>
            ))
          )}
        </TableBody>
      </Table>
      {pagination && (
        <nav
          aria-label="History pages"
          className="flex items-center justify-between gap-2 border-t px-4 py-3 text-sm sm:px-6"
        >
          <span className="text-muted-foreground">
            Page {cursors.length + 1} of {Math.max(1, pagination.totalPages)}
          </span>
          <div className="flex gap-2">
            <Button
              variant="outline"
              size="sm"
              disabled={cursors.length === 0}
              onClick={() => setCursors((list) => list.slice(0, -1))}
            >
              Previous
            </Button>
            <Button
              variant="outline"
              size="sm"
              disabled={pagination.nextBefore === null}
              onClick={() => {
                const next = pagination.nextBefore;
                if (next !== null) setCursors((list) => [...list, next]);
              }}
            >
              Next
            </Button>
          </div>
        </nav>
      )}
    </Card>
  );
}
