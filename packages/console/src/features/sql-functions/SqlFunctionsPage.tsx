import type { SqlFunction } from '@basalt/shared';
import { Pencil, Plus, SquareFunction, Trash2 } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { EmptyState, LoadErrorState } from '@/components/ui/empty-state';
import { FormDialog } from '@/components/ui/form-dialog';
import { PageHeader } from '@/components/ui/page-header';
import { Skeleton } from '@/components/ui/skeleton';
import { SqlFunctionForm } from './SqlFunctionForm';
import {
  useDeleteSqlFunctionMutation,
  useSaveSqlFunctionMutation,
  useSqlFunctionsQuery,
} from './sql-functions.queries';

// /sql-functions: the account's SQL functions, which its app calls with supabase.rpc(name, args) (docs/rpc.md):
// a list with each signature (defaults shown), whether it reads or writes, and Create, Edit and Delete.

const RULES: Record<SqlFunction['callRule'], string> = {
  nobody: 'owner only',
  authenticated: 'signed-in users',
  public: 'public',
};

function signatureOf(fn: SqlFunction): string {
  const params = fn.params
    .map((p) => `${p.name} ${p.type}${p.default === undefined ? '' : ` = ${JSON.stringify(p.default)}`}`)
    .join(', ');
  const { kind, type, table, columns } = fn.returns;
  const row = table ?? `(${(columns ?? []).map((c) => c.name).join(', ')})`;
  const returns = kind === 'scalar' ? type : kind === 'row' ? row : `setof ${row}`;
  return `${fn.name}(${params}) → ${returns}`;
}

function FunctionRow({ fn, onEdit, onDelete }: { fn: SqlFunction; onEdit: () => void; onDelete: () => void }) {
  return (
    <li className="flex flex-col gap-2 rounded-lg border bg-card p-4 sm:flex-row sm:items-center sm:justify-between">
      <div className="grid min-w-0 gap-1">
        <code className="truncate font-mono text-sm font-medium">{signatureOf(fn)}</code>
        <p className="truncate font-mono text-xs text-muted-foreground">{fn.body}</p>
      </div>
      <div className="flex shrink-0 items-center gap-2">
        <Badge variant={fn.mode === 'write' ? 'warning' : 'outline'}>{fn.mode === 'write' ? 'writes' : 'reads'}</Badge>
        <Badge variant="secondary">{RULES[fn.callRule]}</Badge>
        <Button variant="ghost" size="icon" aria-label={`Edit ${fn.name}`} onClick={onEdit}>
          <Pencil />
        </Button>
        <Button variant="ghost" size="icon" aria-label={`Delete ${fn.name}`} onClick={onDelete}>
          <Trash2 />
        </Button>
      </div>
    </li>
  );
}

/** SqlFunctionsPage lists the account's SQL functions and manages them. */
export function SqlFunctionsPage() {
  const functions = useSqlFunctionsQuery();
  const save = useSaveSqlFunctionMutation();
  const remove = useDeleteSqlFunctionMutation();
  const [editing, setEditing] = useState<SqlFunction | 'new' | null>(null);
  const [deleting, setDeleting] = useState<SqlFunction | null>(null);
  const current = editing === 'new' ? null : editing;

  let body: ReactNode;
  if (functions.isError && !functions.data) {
    body = (
      <LoadErrorState
        title="Failed to fetch SQL functions"
        error={functions.error}
        onRetry={() => void functions.refetch()}
        retrying={functions.isFetching}
      />
    );
  } else if (functions.isPending) {
    body = <Skeleton className="h-40 rounded-xl" />;
  } else if (functions.data.length === 0) {
    body = (
      <EmptyState
        icon={SquareFunction}
        title="No SQL functions yet"
        description="A SQL function is a named statement over your tables (a SELECT, or one write) that your app calls with rpc()."
        action={
          <Button size="sm" onClick={() => setEditing('new')}>
            Create SQL Function
          </Button>
        }
      />
    );
  } else {
    body = (
      <ul className="grid gap-3">
        {functions.data.map((fn) => (
          <FunctionRow key={fn.id} fn={fn} onEdit={() => setEditing(fn)} onDelete={() => setDeleting(fn)} />
        ))}
      </ul>
    );
  }

  return (
    <div className="grid gap-6">
      <PageHeader
        title="SQL Functions"
        description="Named statements over your tables, called from your app with supabase.rpc(name, args)."
        actions={
          <Button onClick={() => setEditing('new')}>
            <Plus />
            Create SQL Function
          </Button>
        }
      />
      {body}
      <FormDialog
        open={editing !== null}
        onOpenChange={(open) => !open && setEditing(null)}
        className="sm:max-w-3xl"
        title={current ? `Edit ${current.name}` : 'Create SQL Function'}
        description="It runs as you: its call rule says who of your app's callers may call it."
      >
        <SqlFunctionForm
          key={current ? `${current.id}-${current.updatedAt}` : 'new'}
          fn={current}
          pending={save.isPending}
          submitLabel={current ? 'Save' : 'Create SQL Function'}
          onCancel={() => setEditing(null)}
          onSubmit={(input, refused) =>
            save.mutate(
              { previous: current?.id ?? null, input },
              { onSuccess: () => setEditing(null), onError: refused },
            )
          }
        />
      </FormDialog>
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete ${deleting?.name ?? 'function'}?`}
        description="Calls of it answer 404 from now on. History keeps its definition: reverting the deletion brings it back."
        onConfirm={() => deleting && remove.mutate(deleting)}
        onClose={() => setDeleting(null)}
      />
    </div>
  );
}
