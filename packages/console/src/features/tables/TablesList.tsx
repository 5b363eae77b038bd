import type { TableResponse } from '@basalt/shared';
import { AlertCircle, Table2 } from 'lucide-react';
import { Link, useNavigate } from 'react-router';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { formatDate } from '@/components/ui/relative-time';
import { SkeletonTableRows } from '@/components/ui/skeleton-table-rows';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { errorMessage } from '@/lib/api-errors';
import { TableRowMenu } from './TableRowMenu';
import { useTablesQuery } from './tables.queries';

/** TABLES_SKELETON_ROWS is how many placeholder rows the list shows while loading. */
export const TABLES_SKELETON_ROWS = 5;

const SKELETON_CELLS = [
  { skeleton: 'h-4 w-32' },
  { skeleton: 'h-4 w-48', cell: 'hidden md:table-cell' },
  { skeleton: 'h-4 w-20' },
  { skeleton: 'ml-auto size-6' },
];

/** TablesList is the /tables table with its loading, failure and empty states. */
export function TablesList({ onDelete }: { onDelete: (table: TableResponse) => void }) {
  const tables = useTablesQuery();
  const navigate = useNavigate();

  if (tables.isError) {
    return (
      <EmptyState
        icon={AlertCircle}
        title="Failed to load tables"
        description={errorMessage(tables.error)}
        action={
          <Button variant="outline" size="sm" onClick={() => void tables.refetch()}>
            Retry
          </Button>
        }
      />
    );
  }
  if (tables.data?.length === 0) {
    return (
      <EmptyState
        icon={Table2}
        title="No tables found"
        action={
          <Button asChild size="sm">
            <Link to="/tables/new">Create your first table</Link>
          </Button>
        }
      />
    );
  }
  return (
    <Table>
      <TableHeader>
        <TableRow>
          <TableHead>Name</TableHead>
          <TableHead className="hidden md:table-cell">Description</TableHead>
          <TableHead>Created</TableHead>
          <TableHead className="w-12 text-right">
            <span className="sr-only sm:not-sr-only">Actions</span>
          </TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {tables.isPending ? (
          <SkeletonTableRows rows={TABLES_SKELETON_ROWS} cells={SKELETON_CELLS} testId="table-skeleton-row" />
        ) : (
          tables.data?.map((table) => (
            <TableRow key={table.id} onClick={() => navigate(`/tables/${table.id}`)}>
              <TableCell className="font-medium">
                <Link
                  to={`/tables/${table.id}`}
                  className="inline-flex max-w-[40vw] items-center gap-2 truncate hover:underline sm:max-w-none"
                  onClick={(e) => e.stopPropagation()}
                >
                  <Table2 aria-hidden className="size-4 shrink-0 text-muted-foreground" />
                  <span className="truncate">{table.name}</span>
                </Link>
              </TableCell>
              <TableCell
                className="hidden max-w-xs truncate text-muted-foreground md:table-cell"
                title={table.description ?? undefined}
              >
                {table.description || '—'}
              </TableCell>
              <TableCell className="whitespace-nowrap text-muted-foreground">{formatDate(table.createdAt)}</TableCell>
              <TableCell className="text-right">
                <TableRowMenu table={table} onDelete={onDelete} />
              </TableCell>
            </TableRow>
          ))
        )}
      </TableBody>
    </Table>
  );
}
