import type { TableResponse } from '@basalt/shared';
import { Plus, SquareFunction, Table2 } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { EmptyState, LoadErrorState } from '@/components/ui/empty-state';
import { Label } from '@/components/ui/label';
import { NativeSelect } from '@/components/ui/native-select';
import { PageHeader } from '@/components/ui/page-header';
import { Skeleton } from '@/components/ui/skeleton';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useAuth } from '@/features/auth/auth-context';
import { useLiveTable } from '@/features/realtime/realtime.queries';
import { useSqlFunctionsQuery } from '@/features/sql-functions/sql-functions.queries';
import { useTablesQuery } from '@/features/tables/tables.queries';
import { CheckpointsTab } from './CheckpointsTab';
import { HistoryChangesTable } from './HistoryChangesTable';
import { HistoryTimeline } from './HistoryTimeline';
import { countOf, useCheckpointsQuery, useHistoryTimelineQuery } from './history.queries';

// /history and /history/:tableId. A SQL function's history is /history/-<its id>: its entries are kept under the
// negative of its id (docs/rpc.md); it has a timeline and a table view, no checkpoints.

const TABS = ['timeline', 'table', 'checkpoints'] as const;
type Tab = (typeof TABS)[number];
const isTab = (value: string | null): value is Tab => TABS.some((t) => t === value);

const routeTableId = (raw: string | undefined) => (raw && /^-?[1-9]\d{0,15}$/.test(raw) ? Number(raw) : null);

/** isFunctionKey tells whether a history key is a SQL function's (the negative of its id). */
const isFunctionKey = (tableId: number | null): tableId is number => tableId !== null && tableId < 0;

function Header({ tableId, exists, fnName }: { tableId: number | null; exists: boolean; fnName: string | null }) {
  if (isFunctionKey(tableId)) {
    return (
      <PageHeader
        title="Database History"
        description={
          <>
            Changes to the SQL function <code className="font-mono text-foreground">{fnName ?? `#${-tableId}`}</code>:
            revert one to bring its definition back.
          </>
        }
        actions={
          <Button asChild variant="outline">
            <Link to="/sql-functions">
              <SquareFunction />
              View SQL Functions
            </Link>
          </Button>
        }
      />
    );
  }
  return (
    <PageHeader
      title="Database History"
      description="Review, revert and restore changes to your tables."
      actions={
        tableId !== null &&
        (exists ? (
          <Button asChild variant="outline">
            <Link to={`/tables/${tableId}`}>
              <Table2 />
              View Table Data
            </Link>
          </Button>
        ) : (
          <Button variant="outline" disabled title="This table no longer exists">
            <Table2 />
            View Table Data
          </Button>
        ))
      }
    />
  );
}

function CountBadges({ tableId }: { tableId: number }) {
  const timeline = useHistoryTimelineQuery(tableId);
  const checkpoints = useCheckpointsQuery(tableId);
  const changes = timeline.data?.pages[0]?.pagination.totalItems;
  // A SQL function has no checkpoints.
  const noCheckpoints = isFunctionKey(tableId);
  return (
    <div className="flex flex-wrap gap-2" aria-live="polite">
      {changes === undefined ? (
        <Skeleton className="h-5 w-20" />
      ) : (
        <Badge variant="secondary">{countOf(changes, 'change')}</Badge>
      )}
      {noCheckpoints ? null : checkpoints.data === undefined ? (
        <Skeleton className="h-5 w-24" />
      ) : (
        <Badge variant="secondary">{countOf(checkpoints.data.length, 'checkpoint')}</Badge>
      )}
    </div>
  );
}

function TableSelector({
  tables,
  tableId,
  fnName,
}: {
  tables: readonly TableResponse[];
  tableId: number;
  fnName: string | null;
}) {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const timeline = useHistoryTimelineQuery(tableId);
  // A deleted table keeps its history (and a checkpoint can bring it back): name it from its changes.
  const deletedName = timeline.data?.pages[0]?.data[0]?.tableName;
  const known = tables.some((table) => table.id === tableId);
  // The current function's option; a deleted one is named from its entries, as a deleted table is.
  const unknownLabel = isFunctionKey(tableId)
    ? `SQL function ${fnName ?? `#${-tableId}`}`
    : deletedName
      ? `${deletedName} (deleted)`
      : `Table ${tableId}`;
  return (
    <div className="grid w-full gap-2 sm:w-72">
      <Label htmlFor="history-table">Table</Label>
      <NativeSelect
        id="history-table"
        value={tableId}
        onChange={(event) => {
          const search = params.toString();
          navigate(`/history/${event.target.value}${search ? `?${search}` : ''}`);
        }}
      >
        {!known && <option value={tableId}>{unknownLabel}</option>}
        {tables.map((table) => (
          <option key={table.id} value={table.id}>
            {table.name}
          </option>
        ))}
      </NativeSelect>
    </div>
  );
}

function HistoryTabs({ tableId }: { tableId: number }) {
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab');
  const checkpoints = !isFunctionKey(tableId);
  const tab: Tab = isTab(requested) && (checkpoints || requested !== 'checkpoints') ? requested : 'timeline';
  return (
    <Tabs
      value={tab}
      onValueChange={(value) => setParams(value === 'timeline' ? {} : { tab: value }, { replace: true })}
      className="grid grid-cols-1 gap-4"
    >
      <TabsList className="w-full sm:w-fit">
        <TabsTrigger value="timeline" className="px-2 sm:px-3">
          Timeline View
        </TabsTrigger>
        <TabsTrigger value="table" className="px-2 sm:px-3">
          Table View
        </TabsTrigger>
        {checkpoints && (
          <TabsTrigger value="checkpoints" className="px-2 sm:px-3">
            Checkpoints
          </TabsTrigger>
        )}
      </TabsList>
      <TabsContent value="timeline">
        <HistoryTimeline key={tableId} tableId={tableId} />
      </TabsContent>
      <TabsContent value="table">
        <HistoryChangesTable key={tableId} tableId={tableId} />
      </TabsContent>
      {checkpoints && (
        <TabsContent value="checkpoints">
          <CheckpointsTab key={tableId} tableId={tableId} />
        </TabsContent>
      )}
    </Tabs>
  );
}

// A SQL function's name: "starred", or, once deleted, the name its entries keep: "starred (deleted)".
function useFunctionLabel(tableId: number | null): string | null {
  const functions = useSqlFunctionsQuery();
  const timeline = useHistoryTimelineQuery(isFunctionKey(tableId) ? tableId : 0);
  if (!isFunctionKey(tableId)) return null;
  const live = functions.data?.find((fn) => fn.id === -tableId);
  if (live) return live.name;
  const kept = timeline.data?.pages[0]?.data[0]?.tableName;
  return kept && functions.data ? `${kept} (deleted)` : null;
}

function DatabaseHistory() {
  const routeId = routeTableId(useParams().tableId);
  const tables = useTablesQuery();
  const tableId = routeId ?? tables.data?.[0]?.id ?? null;
  useLiveTable(tableId);
  const exists = tables.data?.some((table) => table.id === tableId) ?? false;
  const fnName = useFunctionLabel(tableId);

  let body: ReactNode;
  if (tables.isPending) {
    body = (
      <div role="status" aria-label="Loading tables" className="grid gap-4">
        <Skeleton className="h-20 w-full" />
        <Skeleton className="h-[400px] w-full" />
      </div>
    );
  } else if (tables.isError) {
    body = (
      <Card>
        <LoadErrorState title="Failed to load tables" error={tables.error} onRetry={() => void tables.refetch()} />
      </Card>
    );
  } else if (tableId === null) {
    body = (
      <Card>
        <EmptyState
          icon={Table2}
          title="No Table Selected"
          description="Create a table first: every change to it is kept here, ready to revert or restore."
          action={
            <Button asChild size="sm">
              <Link to="/tables/create">
                <Plus />
                Create Your First Table
              </Link>
            </Button>
          }
        />
      </Card>
    );
  } else {
    body = (
      <>
        <Card className="flex flex-col gap-3 p-4 sm:flex-row sm:items-end sm:justify-between">
          <TableSelector tables={tables.data} tableId={tableId} fnName={fnName} />
          <CountBadges tableId={tableId} />
        </Card>
        <HistoryTabs tableId={tableId} />
      </>
    );
  }
  return (
    <div className="grid grid-cols-1 gap-6">
      <Header tableId={tableId} exists={exists || tables.isPending} fnName={fnName} />
      {body}
    </div>
  );
}

/** HistoryPage is the Database History page; it renders nothing without a signed-in user. */
export function HistoryPage() {
  const { user } = useAuth();
  return user ? <DatabaseHistory /> : null;
}
