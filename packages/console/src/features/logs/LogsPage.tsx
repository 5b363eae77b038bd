import type { LogsPagination } from '@basalt/shared';
import { ScrollText } from 'lucide-react';
import { lazy, type ReactNode, Suspense } from 'react';
import { useSearchParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { EmptyState, LoadErrorState } from '@/components/ui/empty-state';
import { PageHeader } from '@/components/ui/page-header';
import { Pager } from '@/components/ui/pager';
import { Skeleton } from '@/components/ui/skeleton';
import { SkeletonTableRows } from '@/components/ui/skeleton-table-rows';
import { Table, TableBody, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { LogsTableRow } from './LogsTableRow';
import { useLogsPageQuery } from './logs.queries';

const SKELETON_CELLS = [
  { skeleton: 'h-4 w-20 sm:w-36' },
  { skeleton: 'h-4 w-12' },
  { skeleton: 'h-4 w-10 sm:w-16' },
  { skeleton: 'h-4 w-24 sm:w-64' },
];

function pageFrom(value: string | null): number {
  const page = Number(value);
  return Number.isInteger(page) && page >= 1 ? page : 1;
}

// The Monitoring tab's charts and tables: their own chunk, loaded when the tab is first shown.
const MonitoringView = lazy(() => import('@/features/monitoring/MonitoringView'));

/** LogsPage is /logs: the server's log, 20 entries a page, newest first; and the Monitoring tab (?view=monitoring). */
export function LogsPage() {
  const [params, setParams] = useSearchParams();
  const view = params.get('view') === 'monitoring' ? 'monitoring' : 'entries';
  return (
    <div className="grid grid-cols-1 gap-6">
      <PageHeader title="System Logs" description="What the server has been doing, newest first." />
      <Tabs
        value={view}
        onValueChange={(next) => setParams(next === 'monitoring' ? { view: next } : {}, { replace: true })}
        className="grid grid-cols-1 gap-4"
      >
        <TabsList className="w-full sm:w-fit">
          <TabsTrigger value="entries">Entries</TabsTrigger>
          <TabsTrigger value="monitoring">Monitoring</TabsTrigger>
        </TabsList>
        <TabsContent value="entries">
          <LogEntries />
        </TabsContent>
        <TabsContent value="monitoring">
          <Suspense fallback={<Skeleton className="h-48 w-full" />}>
            <MonitoringView />
          </Suspense>
        </TabsContent>
      </Tabs>
    </div>
  );
}

// The log's entries, a page at a time.
function LogEntries() {
  const [params, setParams] = useSearchParams();
  const page = pageFrom(params.get('page'));
  const logs = useLogsPageQuery(page);
  const goTo = (next: number) => setParams(next === 1 ? {} : { page: String(next) });

  let body: ReactNode;
  if (logs.isError && !logs.data) {
    body = <LoadErrorState title="Failed to load logs" error={logs.error} onRetry={() => void logs.refetch()} />;
  } else if (logs.data?.data.length === 0) {
    body = (
      <EmptyState
        icon={ScrollText}
        title="No logs yet"
        description={page > 1 ? 'This page is empty.' : 'Entries appear here as the server works.'}
        action={
          page > 1 ? (
            <Button variant="outline" size="sm" onClick={() => goTo(1)}>
              Go to the first page
            </Button>
          ) : undefined
        }
      />
    );
  } else {
    body = (
      <Table aria-label="System logs">
        <TableHeader className="hidden sm:table-header-group">
          <TableRow className="hover:bg-transparent">
            <TableHead className="w-48">Timestamp</TableHead>
            <TableHead className="w-24">Level</TableHead>
            <TableHead className="w-32">Service</TableHead>
            <TableHead>Message</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {logs.isPending ? (
            <SkeletonTableRows rows={8} cells={SKELETON_CELLS} testId="logs-skeleton-row" />
          ) : (
            logs.data.data.map((entry) => <LogsTableRow key={entry.id} entry={entry} />)
          )}
        </TableBody>
      </Table>
    );
  }

  return (
    <Card className="overflow-hidden">
      {body}
      {logs.data && logs.data.pagination.totalPages > 0 && (
        <LogsPagesNav pagination={logs.data.pagination} onPageChange={goTo} />
      )}
    </Card>
  );
}

// A count that stopped at its limit (`totalItemsCapped`) reads "More than 10,000 entries" and offers no last page.
function LogsPagesNav({
  pagination,
  onPageChange,
}: {
  pagination: LogsPagination;
  onPageChange: (page: number) => void;
}) {
  const { currentPage, totalPages, totalItems, hasNext, hasPrevious, totalItemsCapped } = pagination;
  const count = totalItems.toLocaleString('en-US');
  return (
    <Pager
      summary={totalItemsCapped ? `More than ${count} entries` : `${count} ${totalItems === 1 ? 'entry' : 'entries'}`}
      page={currentPage}
      totalPages={totalPages}
      hasPrevious={hasPrevious}
      hasNext={hasNext}
      numbered={{ endKnown: !totalItemsCapped }}
      onPageChange={onPageChange}
    />
  );
}
