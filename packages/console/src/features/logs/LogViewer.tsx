import { Download, RefreshCw, ScrollText, Search } from 'lucide-react';
import { type ReactNode, useMemo, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { EmptyState, LoadErrorState } from '@/components/ui/empty-state';
import { Skeleton } from '@/components/ui/skeleton';
import { cn } from '@/lib/cn';
import { downloadJson } from '@/lib/download';
import { LogFilterControls } from './LogFilterControls';
import { LogViewerEntry } from './LogViewerEntry';
import { filterLogs, type LevelFilter, logExportFileName } from './log-filter';
import { useRecentLogsQuery } from './logs.queries';

function ListSkeleton() {
  return (
    <div aria-hidden className="grid gap-3 p-4">
      {Array.from({ length: 6 }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity.
        <div key={i} data-testid="log-skeleton-row" className="grid gap-2">
          <div className="flex gap-2">
            <Skeleton className="h-4 w-12" />
            <Skeleton className="h-4 w-32" />
          </div>
          <Skeleton className="h-4 w-3/4" />
        </div>
      ))}
    </div>
  );
}

/**
 * LogViewer is Settings › Logs: recent entries, filtered by level and text, exported as shown. `initialSearch` starts
 * the search filled in (the Monitoring view's links to a route's errors).
 */
export function LogViewer({ initialSearch = '' }: { initialSearch?: string }) {
  const logs = useRecentLogsQuery();
  const [level, setLevel] = useState<LevelFilter>('all');
  const [search, setSearch] = useState(initialSearch);
  const shown = useMemo(() => filterLogs(logs.data ?? [], { level, search }), [logs.data, level, search]);

  let list: ReactNode;
  if (logs.isPending) list = <ListSkeleton />;
  else if (logs.isError)
    list = <LoadErrorState title="Failed to load logs" error={logs.error} onRetry={() => void logs.refetch()} />;
  else if (logs.data.length === 0)
    list = <EmptyState icon={ScrollText} title="No logs yet" description="Entries appear here as the server works." />;
  else if (shown.length === 0)
    list = (
      <EmptyState
        icon={Search}
        title="No logs match your filters"
        description="Try another level or a shorter search."
        action={
          <Button
            variant="outline"
            size="sm"
            onClick={() => {
              setLevel('all');
              setSearch('');
            }}
          >
            Clear filters
          </Button>
        }
      />
    );
  else
    list = (
      <ul aria-label="Log entries" className="divide-y">
        {shown.map((entry) => (
          <LogViewerEntry key={entry.id} entry={entry} />
        ))}
      </ul>
    );

  return (
    <Card className="overflow-hidden">
      <CardHeader className="gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="grid gap-1.5">
          <CardTitle>System Logs</CardTitle>
          <CardDescription>Recent server entries, refreshed every 30 seconds.</CardDescription>
        </div>
        <div className="flex gap-2">
          <Button
            variant="outline"
            size="sm"
            disabled={logs.isFetching}
            onClick={() => void logs.refetch()}
            aria-label="Refresh logs"
          >
            <RefreshCw className={cn(logs.isFetching && 'animate-spin')} />
            <span className="hidden sm:inline">Refresh</span>
          </Button>
          <Button
            variant="outline"
            size="sm"
            disabled={shown.length === 0}
            onClick={() => downloadJson(shown, logExportFileName())}
          >
            <Download />
            Export JSON
          </Button>
        </div>
      </CardHeader>
      <LogFilterControls
        className="px-5 pb-4 sm:px-6"
        search={search}
        level={level}
        onSearch={setSearch}
        onLevel={setLevel}
      />
      <div className="h-[400px] overflow-y-auto border-t" data-testid="log-list">
        {list}
      </div>
      {logs.data && logs.data.length > 0 && (
        <p aria-live="polite" className="border-t px-5 py-2 text-xs text-muted-foreground sm:px-6">
          Showing {shown.length} of {logs.data.length} entries
        </p>
      )}
    </Card>
  );
}
