import { LoadErrorState } from '@/components/ui/empty-state';
import { Skeleton } from '@/components/ui/skeleton';
import { useTableEndpointsQuery } from './api-docs.queries';
import type { EndpointDoc } from './api-reference';
import { EndpointList } from './EndpointList';

/**
 * TableEndpoints reads a table's record API endpoints from the server's OpenAPI document and hands them to
 * `children` (EndpointList by default): loading, failure and a table the document does not cover are said here.
 */
export function TableEndpoints({
  table,
  children = (endpoints) => <EndpointList endpoints={endpoints} />,
}: {
  table: string;
  children?: (endpoints: EndpointDoc[]) => React.ReactNode;
}) {
  const endpoints = useTableEndpointsQuery(table);
  if (endpoints.isPending) return <Skeleton className="h-40 w-full" role="status" aria-label="Loading endpoints" />;
  if (endpoints.isError) {
    return (
      <LoadErrorState
        title="Failed to load the API document"
        error={endpoints.error}
        onRetry={() => void endpoints.refetch()}
        retrying={endpoints.isFetching}
      />
    );
  }
  if (endpoints.data.length === 0) {
    return (
      <p className="text-sm text-muted-foreground">
        This table belongs to another account: its record API answers that account's API keys.
      </p>
    );
  }
  return children(endpoints.data);
}
