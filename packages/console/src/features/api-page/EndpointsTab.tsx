import { AlertCircle, Table2 } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { Label } from '@/components/ui/label';
import { NativeSelect } from '@/components/ui/native-select';
import { Skeleton } from '@/components/ui/skeleton';
import { recordApiEndpoints } from '@/features/tables/api-reference';
import { EndpointList } from '@/features/tables/EndpointList';
import { useTablesQuery } from '@/features/tables/tables.queries';
import { errorMessage } from '@/lib/api-errors';

/** EndpointsTab shows the record API's endpoints for one of the account's tables. */
export function EndpointsTab() {
  const tables = useTablesQuery();
  const [chosen, setChosen] = useState<number | null>(null);
  const table = tables.data?.find((t) => t.id === chosen) ?? tables.data?.[0];
  return (
    <Card>
      <CardHeader>
        <CardTitle>Endpoints</CardTitle>
        <CardDescription>Every table has these endpoints. Call them with an API key as a bearer token.</CardDescription>
      </CardHeader>
      <CardContent className="grid grid-cols-1 gap-4">
        {tables.isPending ? (
          <Skeleton className="h-40 w-full" />
        ) : tables.isError ? (
          <EmptyState
            icon={AlertCircle}
            title="Failed to load tables"
            description={errorMessage(tables.error)}
            action={
              <Button variant="outline" size="sm" disabled={tables.isFetching} onClick={() => void tables.refetch()}>
                Retry
              </Button>
            }
          />
        ) : !table ? (
          <EmptyState
            icon={Table2}
            title="No tables found"
            description="Create a table to get its endpoints."
            action={
              <Button asChild size="sm">
                <Link to="/tables/new">Create your first table</Link>
              </Button>
            }
          />
        ) : (
          <>
            <div className="grid max-w-xs gap-2">
              <Label htmlFor="endpoints-table">Table</Label>
              <NativeSelect id="endpoints-table" value={table.id} onChange={(e) => setChosen(Number(e.target.value))}>
                {tables.data?.map((t) => (
                  <option key={t.id} value={t.id}>
                    {t.name}
                  </option>
                ))}
              </NativeSelect>
            </div>
            <EndpointList endpoints={recordApiEndpoints(table.name)} />
            <p className="text-sm text-muted-foreground">
              The short form <code className="font-mono text-[13px]">/api/{table.name}</code> works the same. See the{' '}
              <Link
                to={`/record-api?table=${encodeURIComponent(table.name)}`}
                className="text-primary underline-offset-4 hover:underline"
              >
                Record API docs
              </Link>{' '}
              for runnable examples.
            </p>
          </>
        )}
      </CardContent>
    </Card>
  );
}
