import { Plus, Table2 } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { RelativeTime } from '@/components/ui/relative-time';
import { Skeleton } from '@/components/ui/skeleton';
import { SkeletonTableRows } from '@/components/ui/skeleton-table-rows';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { useTablesQuery } from '@/features/tables/tables.queries';
import { errorMessage } from '@/lib/api-errors';
import { useRecordCounts } from './dashboard.queries';

const SKELETON_CELLS = [
  { skeleton: 'h-4 w-28' },
  { skeleton: 'ml-auto h-4 w-10' },
  { skeleton: 'h-4 w-20' },
  { skeleton: 'ml-auto h-7 w-14' },
];

/** DASHBOARD_SKELETON_ROWS is how many placeholder rows the panel shows while loading. */
export const DASHBOARD_SKELETON_ROWS = 3;

/** DatabaseTablesPanel lists the tables with their real row counts, creation time and a View link. */
export function DatabaseTablesPanel() {
  const tables = useTablesQuery();
  const counts = useRecordCounts(tables.data);
  let body: ReactNode;
  if (tables.isError) {
    body = <EmptyState title="Failed to load tables" description={errorMessage(tables.error)} />;
  } else if (tables.data?.length === 0) {
    body = (
      <EmptyState
        icon={Table2}
        title="No tables found"
        action={
          <Button asChild variant="outline" size="sm">
            <Link to="/tables/new">Create your first table</Link>
          </Button>
        }
      />
    );
  } else {
    body = (
      <Table>
        <TableHeader>
          <TableRow className="hover:bg-transparent">
            <TableHead>Name</TableHead>
            <TableHead className="text-right">Rows</TableHead>
            <TableHead>Created</TableHead>
            <TableHead className="text-right">Actions</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {tables.isPending ? (
            <SkeletonTableRows rows={DASHBOARD_SKELETON_ROWS} cells={SKELETON_CELLS} testId="dashboard-skeleton-row" />
          ) : (
            tables.data.map((table, index) => {
              const count = counts[index];
              return (
                <TableRow key={table.id}>
                  <TableCell className="max-w-40 truncate font-medium">{table.name}</TableCell>
                  <TableCell className="text-right tabular-nums">
                    {count?.isPending ? (
                      <Skeleton className="ml-auto h-4 w-10" />
                    ) : count?.data !== undefined ? (
                      count.data.toLocaleString('en-US')
                    ) : (
                      '—'
                    )}
                  </TableCell>
                  <TableCell className="text-muted-foreground">
                    <RelativeTime value={table.createdAt} />
                  </TableCell>
                  <TableCell className="text-right">
                    <Button asChild variant="ghost" size="sm">
                      <Link to={`/tables/${table.id}`} aria-label={`View ${table.name}`}>
                        View
                      </Link>
                    </Button>
                  </TableCell>
                </TableRow>
              );
            })
          )}
        </TableBody>
      </Table>
    );
  }
  return (
    <Card className="overflow-hidden">
      <CardHeader className="flex-row items-start justify-between gap-3">
        <div className="grid gap-1.5">
          <CardTitle>Database Tables</CardTitle>
          <CardDescription>Your tables and how many records each holds.</CardDescription>
        </div>
        <Button asChild size="sm">
          <Link to="/tables/new">
            <Plus />
            New Table
          </Link>
        </Button>
      </CardHeader>
      {body}
    </Card>
  );
}
