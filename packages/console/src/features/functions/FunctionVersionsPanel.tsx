import type { EdgeFunction } from '@basalt/shared';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { LoadErrorState } from '@/components/ui/empty-state';
import { formatDateTime } from '@/components/ui/relative-time';
import { Spinner } from '@/components/ui/spinner';
import { useFunctionVersionsQuery, useRollbackEdgeFunctionMutation } from './functions.queries';

/** FunctionVersionsPanel lists the kept versions of a function and rolls back to one. */
export function FunctionVersionsPanel({ fn }: { fn: EdgeFunction }) {
  const versions = useFunctionVersionsQuery(fn.id);
  const rollback = useRollbackEdgeFunctionMutation();
  if (versions.isError) {
    return (
      <LoadErrorState title="Failed to load versions" error={versions.error} onRetry={() => void versions.refetch()} />
    );
  }
  if (versions.isPending) return <Spinner className="mx-auto my-6" />;
  if (versions.data.length === 0) {
    return <p className="py-6 text-center text-sm text-muted-foreground">Never deployed.</p>;
  }
  return (
    <ul aria-label="Versions" className="max-h-96 overflow-auto rounded-md border">
      {versions.data.map((version) => (
        <li key={version.version} className="flex items-center gap-3 border-b px-3 py-2 text-sm last:border-b-0">
          <span className="font-mono font-medium">v{version.version}</span>
          {version.live && <Badge>Live</Badge>}
          <span className="min-w-0 flex-1 truncate text-muted-foreground">
            {formatDateTime(version.createdAt)} · {(version.bundleBytes / 1024).toFixed(1)} KB
          </span>
          {!version.live && (
            <Button
              variant="outline"
              size="sm"
              disabled={rollback.isPending}
              onClick={() => rollback.mutate({ id: fn.id, version: version.version })}
            >
              Roll back
            </Button>
          )}
        </li>
      ))}
    </ul>
  );
}
