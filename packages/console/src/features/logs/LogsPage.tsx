import type { LogsPagination } from '@basalt/shared';
import { ScrollText } from 'lucide-react';
import { type ReactNode, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { EmptyState, LoadErrorState } from '@/components/ui/empty-state';
import { PageHeader } from '@/components/ui/page-header';
import { Pager } from '@/components/ui/pager';
import { SkeletonTableRows } from '@/components/ui/skeleton-table-rows';
import { Table, TableBody, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { MonitoringView } from '@/features/monitoring/MonitoringView';
import { isLevelFilter, LogFilterControls } from './LogFilterControls';
import { LogsTableRow } from './LogsTableRow';
import type { LevelFilter } from './log-filter';
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

/**
 * LogsPage is /logs: the server's log, 20 entries a page, newest first, searched and filtered by level on the
 * server; and the Monitoring tab (?view=monitoring).
 */
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
          <MonitoringView />
        </TabsContent>
      </Tabs>
    </div>
  );
}

// How long the search box must stay still before the server is asked (each key press would be a query).
const SEARCH_DELAY_MS = 300;

// The log's entries, a page at a time, filtered by the server: the level and search live in the address
// (?level=&q=&page=), so a filtered page can be reloaded and shared; a new filter starts again at page 1.
function LogEntries() {
  const [params, setParams] = useSearchParams();
  const page = pageFrom(params.get('page'));
  const levelParam = params.get('level');
  const level: LevelFilter = isLevelFilter(levelParam) ? levelParam : 'all';
  const search = params.get('q') ?? '';
  const [typed, setTyped] = useState(search);
  const filters = { ...(level === 'all' ? {} : { level }), ...(search.trim() ? { search: search.trim() } : {}) };
  const logs = useLogsPageQuery(page, filters);
  const show = (next: { page?: number; level?: LevelFilter; search?: string }) => {
    const chosen = { page: next.page ?? 1, level: next.level ?? level, search: next.search ?? search };
    const entries: Record<string, string> = {};
    if (chosen.level !== 'all') entries.level = chosen.level;
    if (chosen.search.trim()) entries.q = chosen.search;
    if (chosen.page > 1) entries.page = String(chosen.page);
    setParams(entries, { replace: next.page === undefined });
  };
  const goTo = (next: number) => show({ page: next });
  // The box follows the address when it changes from elsewhere (back, a link, Clear filters).
  useEffect(() => setTyped(search), [search]);
  // The typed search reaches the address once the box has been still for a moment.
  useEffect(() => {
    if (typed === search) return;
    const timer = setTimeout(() => show({ search: typed }), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  });
  const filtered = level !== 'all' || search.trim() !== '';

  let body: ReactNode;
  if (logs.isError && !logs.data) {
    body = <LoadErrorState title="Failed to load logs" error={logs.error} onRetry={() => void logs.refetch()} />;
  } else if (logs.data?.data.length === 0 && filtered && page === 1) {
    body = (
      <EmptyState
        icon={ScrollText}
        title="No matching logs"
        description="Try another level or a shorter search."
        action={
          <Button
            variant="outline"
            size="sm"
            onClick={() => {
              setTyped('');
              show({ level: 'all', search: '' });
            }}
          >
            Clear filters
          </Button>
        }
      />
    );
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
      <LogFilterControls
        className="border-b p-4"
        search={typed}
        level={level}
        onSearch={setTyped}
        onLevel={(next) => show({ level: next })}
      />
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
