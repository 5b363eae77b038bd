import type { EdgeFunction } from '@basalt/shared';
import { Plus, Zap } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { EmptyState, LoadErrorState } from '@/components/ui/empty-state';
import { PageHeader } from '@/components/ui/page-header';
import { Skeleton } from '@/components/ui/skeleton';
import { Tabs, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { FunctionCard } from './FunctionCard';
import { CreateFunctionDialog, EditFunctionDialog } from './FunctionDialog';
import {
  useDeleteEdgeFunctionMutation,
  useDeployEdgeFunctionMutation,
  useEdgeFunctionsQuery,
} from './functions.queries';

// /edge-functions: tabs All Functions / Active / Inactive, a card
// grid, Create, Edit, Deploy and Delete, and "No edge functions found".

type Filter = 'all' | 'active' | 'inactive';

const matches = (filter: Filter) => (fn: EdgeFunction) =>
  filter === 'all' || (filter === 'active' ? fn.isActive : !fn.isActive);

/** EdgeFunctionsPage lists the account's functions and manages them. */
export function EdgeFunctionsPage() {
  const functions = useEdgeFunctionsQuery();
  const deploy = useDeployEdgeFunctionMutation();
  const remove = useDeleteEdgeFunctionMutation();
  const [filter, setFilter] = useState<Filter>('all');
  const [creating, setCreating] = useState(false);
  const [editingId, setEditingId] = useState<number | null>(null);
  const [deleting, setDeleting] = useState<EdgeFunction | null>(null);
  const editing = functions.data?.find((fn) => fn.id === editingId) ?? null;
  const shown = functions.data?.filter(matches(filter)) ?? [];

  let body: ReactNode;
  if (functions.isError && !functions.data) {
    body = (
      <LoadErrorState
        title="Failed to fetch edge functions"
        error={functions.error}
        onRetry={() => void functions.refetch()}
        retrying={functions.isFetching}
      />
    );
  } else if (functions.isPending) {
    body = (
      <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
        {['a', 'b', 'c'].map((key) => (
          <Skeleton key={key} className="h-64 rounded-xl" />
        ))}
      </div>
    );
  } else if (shown.length === 0) {
    body = (
      <EmptyState
        icon={Zap}
        title="No edge functions found"
        description={filter === 'all' ? 'Create a function to run your own code next to your data.' : undefined}
        action={
          filter === 'all' ? (
            <Button size="sm" onClick={() => setCreating(true)}>
              Create Function
            </Button>
          ) : undefined
        }
      />
    );
  } else {
    body = (
      <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
        {shown.map((fn) => (
          <FunctionCard
            key={fn.id}
            fn={fn}
            deploying={deploy.isPending && deploy.variables?.id === fn.id}
            onEdit={() => setEditingId(fn.id)}
            onDeploy={() => deploy.mutate(fn)}
            onDelete={() => setDeleting(fn)}
          />
        ))}
      </div>
    );
  }

  return (
    <div className="grid gap-6">
      <PageHeader
        title="Edge Functions"
        description="Deploy serverless functions next to your data. They run on Deno, like Supabase's."
        actions={
          <Button onClick={() => setCreating(true)}>
            <Plus />
            Create Function
          </Button>
        }
      />
      <Tabs value={filter} onValueChange={(value) => setFilter(value as Filter)}>
        <TabsList className="w-full sm:w-fit">
          <TabsTrigger value="all">All Functions</TabsTrigger>
          <TabsTrigger value="active">Active</TabsTrigger>
          <TabsTrigger value="inactive">Inactive</TabsTrigger>
        </TabsList>
      </Tabs>
      {body}
      <CreateFunctionDialog open={creating} onOpenChange={setCreating} />
      <EditFunctionDialog fn={editing} onClose={() => setEditingId(null)} />
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete ${deleting?.name ?? 'function'}?`}
        description="The function, its versions and its log are deleted, and its route stops answering. This cannot be undone."
        onConfirm={() => deleting && remove.mutate(deleting)}
        onClose={() => setDeleting(null)}
      />
    </div>
  );
}
