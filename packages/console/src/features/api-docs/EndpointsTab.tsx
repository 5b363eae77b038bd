import { useState } from 'react';
import { Link } from 'react-router';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { LoadErrorState } from '@/components/ui/empty-state';
import { Label } from '@/components/ui/label';
import { NativeSelect } from '@/components/ui/native-select';
import { Skeleton } from '@/components/ui/skeleton';
import { useTablesQuery } from '@/features/tables/tables.queries';
import { NoTablesState } from './DocsTablesGate';
import { TableEndpoints } from './TableEndpoints';

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
          <LoadErrorState
            title="Failed to load tables"
            error={tables.error}
            onRetry={() => void tables.refetch()}
            retrying={tables.isFetching}
          />
        ) : !table ? (
          <NoTablesState title="No tables found" description="Create a table to get its endpoints." />
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
            <TableEndpoints table={table.name} />
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
