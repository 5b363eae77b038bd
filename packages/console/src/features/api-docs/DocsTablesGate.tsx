import type { TableResponse } from '@basalt/shared';
import { Table2 } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { EmptyState, LoadErrorState } from '@/components/ui/empty-state';
import { Label } from '@/components/ui/label';
import { NativeSelect } from '@/components/ui/native-select';
import { Skeleton } from '@/components/ui/skeleton';
import { useApiTablesQuery } from '@/features/tables/tables.queries';
import { chooseTable } from './useDocsSearchParams';

/** NoTablesState is the empty state of a view that documents tables when there are none: a link to create one. */
export function NoTablesState({ title, description }: { title: string; description: string }) {
  return (
    <EmptyState
      icon={Table2}
      title={title}
      description={description}
      action={
        <Button asChild size="sm">
          <Link to="/tables/new">Create your first table</Link>
        </Button>
      }
    />
  );
}

/** DocsTablesGate loads the account's tables and shows their loading, error and empty states, else `children`. */
export function DocsTablesGate({ children }: { children: (tables: TableResponse[]) => ReactNode }) {
  const tables = useApiTablesQuery();
  if (tables.isPending) {
    return (
      <div role="status" aria-label="Loading tables" className="grid grid-cols-1 gap-4">
        <Skeleton className="h-9 w-full max-w-xs" />
        <Skeleton className="h-44 w-full" />
        <Skeleton className="h-44 w-full" />
      </div>
    );
  }
  if (tables.isError) {
    return (
      <Card>
        <LoadErrorState
          title="Failed to load tables"
          error={tables.error}
          onRetry={() => void tables.refetch()}
          retrying={tables.isFetching}
        />
      </Card>
    );
  }
  if (tables.data.length === 0) {
    return (
      <Card>
        <NoTablesState
          title="No tables yet"
          description="Every table gets its own endpoints. Create one to see them documented here."
        />
      </Card>
    );
  }
  return children(tables.data);
}

/** ChosenTableView shows a table picker over `children` for the chosen table (by name, else the first). */
export function ChosenTableView({
  pickerId,
  tableName,
  onChoose,
  children,
}: {
  pickerId: string;
  tableName: string | null;
  onChoose: (name: string) => void;
  children: (table: TableResponse) => ReactNode;
}) {
  return (
    <DocsTablesGate>
      {(tables) => {
        const table = chooseTable(tables, tableName);
        if (!table) return null;
        return (
          <div className="grid grid-cols-1 gap-4">
            <div className="grid max-w-xs gap-2">
              <Label htmlFor={pickerId}>Table</Label>
              <NativeSelect id={pickerId} value={table.name} onChange={(event) => onChoose(event.target.value)}>
                {tables.map((t) => (
                  <option key={t.id} value={t.name}>
                    {t.name}
                  </option>
                ))}
              </NativeSelect>
            </div>
            {children(table)}
          </div>
        );
      }}
    </DocsTablesGate>
  );
}
