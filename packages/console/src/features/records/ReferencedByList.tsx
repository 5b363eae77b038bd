import type { TableResponse } from '@basalt/shared';
import { Link } from 'react-router';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { labelText } from './reference-labels';
import { REFERENCED_BY_PAGE, useReferencedBy } from './referenced-by.queries';

/** rowPath is the address of a row's page. */
export const rowPath = (tableId: number, rowId: number) => `/tables/${tableId}/rows/${rowId}`;

/**
 * ReferencedByList is a row page's "Referenced by": per referring table and column, how many rows point at this
 * row and the first of them, each linked to its own row page, and a link to all of them in that table's grid.
 */
export function ReferencedByList({ table, rowId }: { table: TableResponse; rowId: number }) {
  const groups = useReferencedBy(table, rowId);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Referenced by</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-4">
        {groups.length === 0 && (
          <p className="text-sm text-muted-foreground">No column of your tables references {table.name}.</p>
        )}
        {groups.map(({ referrer, result }) => {
          const key = `${referrer.table.id}.${referrer.column}`;
          const total = result?.data?.total ?? 0;
          const heading = `${referrer.table.name}.${referrer.column}`;
          return (
            <section key={key} aria-label={heading} className="grid gap-2" data-testid="referenced-by-group">
              <h3 className="flex items-center gap-2 text-sm font-medium">
                <span className="font-mono">{heading}</span>
                {result?.data && <Badge variant="secondary">{total.toLocaleString('en-US')}</Badge>}
              </h3>
              {result?.isPending && <Skeleton className="h-6 w-full" />}
              {result?.isError && <p className="text-sm text-destructive">The rows could not be loaded.</p>}
              {result?.data && total === 0 && <p className="text-sm text-muted-foreground">No rows point here.</p>}
              {result?.data && total > 0 && (
                <ul className="grid gap-1">
                  {result.data.rows.map((row) => {
                    const text = labelText(row, referrer.labelColumn, referrer.table.schema);
                    return (
                      <li key={row.id}>
                        <Link
                          to={rowPath(referrer.table.id, row.id)}
                          className="inline-flex max-w-full items-baseline gap-1.5 rounded text-sm hover:underline"
                        >
                          {text && <span className="truncate">{text}</span>}
                          <span className="font-mono text-xs text-muted-foreground">#{row.id}</span>
                        </Link>
                      </li>
                    );
                  })}
                </ul>
              )}
              {total > REFERENCED_BY_PAGE && (
                <Link
                  to={`/tables/${referrer.table.id}?filter=${encodeURIComponent(`${referrer.column}:eq:${rowId}`)}`}
                  className="text-sm text-primary hover:underline"
                >
                  All {total.toLocaleString('en-US')} in {referrer.table.name}
                </Link>
              )}
            </section>
          );
        })}
      </CardContent>
    </Card>
  );
}
