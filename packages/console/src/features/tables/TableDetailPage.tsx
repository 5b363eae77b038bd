import { type RecordRow, roleCan, type TableResponse } from '@basalt/shared';
import { useQueryClient } from '@tanstack/react-query';
import { AlertCircle, ArrowLeft, Plus, RefreshCw } from 'lucide-react';
import { useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { Skeleton } from '@/components/ui/skeleton';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useSharedTableRole } from '@/features/projects/projects.queries';
import { refreshTable } from '@/features/query-refresh';
import { useLiveTable } from '@/features/realtime/realtime.queries';
import { DeleteRecordDialog } from '@/features/records/DeleteRecordDialog';
import { type RecordDialogState, RecordFormDialog } from '@/features/records/RecordFormDialog';
import { RecordsTab } from '@/features/records/RecordsTab';
import { errorMessage, errorStatus } from '@/lib/api-errors';
import { cn } from '@/lib/cn';
import { TableAccessTab } from './TableAccessTab';
import { TableApiTab } from './TableApiTab';
import { TableHistoryTab } from './TableHistoryTab';
import { TableSchemaTab } from './TableSchemaTab';
import { useTableQuery } from './tables.queries';

const TABS = ['data', 'schema', 'access', 'api', 'history'] as const;
type Tab = (typeof TABS)[number];
const isTab = (value: string | null): value is Tab => TABS.some((t) => t === value);

/** tableIdParam reads the :id of the route; anything but a positive integer is no table. */
export function tableIdParam(raw: string | undefined): number {
  return raw && /^[1-9]\d{0,15}$/.test(raw) ? Number(raw) : -1;
}

function BackButton() {
  return (
    <Button asChild variant="ghost" size="sm" className="-ml-2 w-fit text-muted-foreground">
      <Link to="/tables">
        <ArrowLeft />
        Back
      </Link>
    </Button>
  );
}

function TableDetail({ table, isFetching }: { table: TableResponse; isFetching: boolean }) {
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const requestedTab = params.get('tab');
  const tab: Tab = isTab(requestedTab) ? requestedTab : 'data';
  const [recordDialog, setRecordDialog] = useState<RecordDialogState>(null);
  const [deleting, setDeleting] = useState<RecordRow | null>(null);

  const refresh = () => refreshTable(queryClient, table);
  const openCreate = () => setRecordDialog({ mode: 'create' });
  // A table shared with the caller through a project: its role there decides what the page offers.
  const shared = useSharedTableRole(table.id);
  const canWrite = !shared || roleCan(shared.role, 'records.write');
  // Records and history follow changes made anywhere else, live.
  useLiveTable(table.id);

  return (
    <div className="grid grid-cols-1 gap-6">
      <header className="grid gap-3">
        <BackButton />
        <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
          <div className="min-w-0">
            <h1 className="font-mono text-2xl font-semibold tracking-tight break-all">{table.name}</h1>
            <p className="mt-1 text-sm text-muted-foreground">{table.description || 'No description'}</p>
            {shared && (
              <Badge variant="outline" className="mt-2">
                Shared in {shared.projectName} · {shared.role}
              </Badge>
            )}
          </div>
          <div className="flex shrink-0 gap-2">
            <Button variant="outline" onClick={refresh} aria-label="Refresh">
              <RefreshCw className={cn(isFetching && 'animate-spin')} />
              <span className="hidden sm:inline">Refresh</span>
            </Button>
            {canWrite && (
              <Button onClick={openCreate} className="flex-1 sm:flex-none">
                <Plus />
                Add Record
              </Button>
            )}
          </div>
        </div>
      </header>
      <Tabs
        value={tab}
        onValueChange={(value) =>
          setParams((current) => {
            const next = new URLSearchParams(current);
            if (value === 'data') next.delete('tab');
            else next.set('tab', value);
            return next;
          })
        }
        className="grid grid-cols-1 gap-4"
      >
        <TabsList className="w-full sm:w-fit">
          <TabsTrigger value="data">Data</TabsTrigger>
          <TabsTrigger value="schema">Schema</TabsTrigger>
          <TabsTrigger value="access">Access</TabsTrigger>
          <TabsTrigger value="api">API</TabsTrigger>
          <TabsTrigger value="history">History</TabsTrigger>
        </TabsList>
        <TabsContent value="data">
          <RecordsTab
            table={table}
            onAdd={canWrite ? openCreate : undefined}
            onEdit={canWrite ? (record) => setRecordDialog({ mode: 'edit', record }) : undefined}
            onDelete={canWrite ? setDeleting : undefined}
          />
        </TabsContent>
        <TabsContent value="schema">
          <TableSchemaTab table={table} />
        </TabsContent>
        <TabsContent value="access">
          <TableAccessTab key={`${table.id}:${JSON.stringify(table.access ?? null)}`} table={table} />
        </TabsContent>
        <TabsContent value="api">
          <TableApiTab table={table} />
        </TabsContent>
        <TabsContent value="history">
          <TableHistoryTab table={table} />
        </TabsContent>
      </Tabs>
      <RecordFormDialog table={table} state={recordDialog} onClose={() => setRecordDialog(null)} />
      <DeleteRecordDialog table={table} record={deleting} onClose={() => setDeleting(null)} />
    </div>
  );
}

/** TableDetailPage is /tables/:id: the table's header, and its Data, Schema, API and History tabs. */
export function TableDetailPage() {
  const id = tableIdParam(useParams().id);
  const table = useTableQuery(id);

  if (table.data) return <TableDetail table={table.data} isFetching={table.isFetching} />;
  if (table.isError || id < 0) {
    const missing = id < 0 || errorStatus(table.error) === 404;
    return (
      <div className="grid grid-cols-1 gap-6">
        <BackButton />
        <Card>
          <EmptyState
            icon={AlertCircle}
            title={missing ? 'Table not found' : 'Failed to load the table'}
            description={
              missing ? 'It may have been deleted, or it belongs to another account.' : errorMessage(table.error)
            }
            action={
              <Button asChild variant="outline" size="sm">
                <Link to="/tables">Back to tables</Link>
              </Button>
            }
          />
        </Card>
      </div>
    );
  }
  return (
    <div className="grid grid-cols-1 gap-6" role="status" aria-busy="true" aria-label="Loading table">
      <Skeleton className="h-8 w-20" />
      <Skeleton className="h-8 w-56" />
      <Skeleton className="h-9 w-80 max-w-full" />
      <Skeleton className="h-64 w-full" />
    </div>
  );
}
