import type { Secret } from '@basalt/shared';
import { KeyRound, Lightbulb, Plus, Search, Trash2 } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { EmptyState, LoadErrorState } from '@/components/ui/empty-state';
import { Input } from '@/components/ui/input';
import { PageHeader } from '@/components/ui/page-header';
import { formatDateTime } from '@/components/ui/relative-time';
import { SkeletonTableRows } from '@/components/ui/skeleton-table-rows';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { AddSecretDialog } from './AddSecretDialog';
import { SecretValueCell } from './SecretValueCell';
import { useDeleteSecretMutation, useSecretsQuery } from './secrets.queries';

// /secrets: a table searchable by name with Name, Value, the encryption
// badge, Created At and delete; the Add dialog; the advice banner; the empty text.

const SKELETON_CELLS = [
  { skeleton: 'h-4 w-32' },
  { skeleton: 'h-4 w-28' },
  { skeleton: 'h-4 w-16' },
  { skeleton: 'h-4 w-24' },
  { skeleton: 'ml-auto size-7' },
];

function EncryptionBadge({ secret, className }: { secret: Secret; className?: string }) {
  return (
    <Badge variant={secret.isEncrypted ? 'default' : 'warning'} className={className}>
      {secret.isEncrypted ? 'Encrypted' : 'Plain Text'}
    </Badge>
  );
}

/** SecretsPage lists the account's secrets and manages them. */
export function SecretsPage() {
  const secrets = useSecretsQuery();
  const remove = useDeleteSecretMutation();
  const [search, setSearch] = useState('');
  const [adding, setAdding] = useState(false);
  const [deleting, setDeleting] = useState<Secret | null>(null);
  const needle = search.trim().toLowerCase();
  const shown = secrets.data?.filter((s) => s.name.toLowerCase().includes(needle)) ?? [];

  let body: ReactNode;
  if (secrets.isError && !secrets.data) {
    body = (
      <LoadErrorState title="Failed to fetch secrets" error={secrets.error} onRetry={() => void secrets.refetch()} />
    );
  } else if (secrets.data && shown.length === 0) {
    body = (
      <EmptyState
        icon={KeyRound}
        title={
          secrets.data.length === 0
            ? 'No secrets available. Add your first secret to get started.'
            : 'No secrets match your search.'
        }
      />
    );
  } else {
    body = (
      <Table aria-label="Secrets">
        <TableHeader>
          <TableRow className="hover:bg-transparent">
            <TableHead>Name</TableHead>
            <TableHead>Value</TableHead>
            <TableHead className="hidden sm:table-cell">Encryption</TableHead>
            <TableHead className="hidden md:table-cell">Created At</TableHead>
            <TableHead className="w-12 text-right">
              <span className="sr-only">Actions</span>
            </TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {secrets.isPending ? (
            <SkeletonTableRows rows={3} cells={SKELETON_CELLS} />
          ) : (
            shown.map((secret) => (
              <TableRow key={secret.id}>
                <TableCell className="max-w-36 sm:max-w-none">
                  <div className="grid gap-1">
                    <span className="font-mono text-xs font-medium [overflow-wrap:anywhere]">{secret.name}</span>
                    <EncryptionBadge secret={secret} className="sm:hidden" />
                  </div>
                </TableCell>
                <TableCell className="w-32 max-w-32 sm:w-auto sm:max-w-64">
                  <SecretValueCell secret={secret} />
                </TableCell>
                <TableCell className="hidden sm:table-cell">
                  <EncryptionBadge secret={secret} />
                </TableCell>
                <TableCell className="hidden whitespace-nowrap text-muted-foreground md:table-cell">
                  {formatDateTime(secret.createdAt)}
                </TableCell>
                <TableCell className="text-right">
                  <Button
                    variant="ghost"
                    size="icon-sm"
                    aria-label={`Delete secret ${secret.name}`}
                    className="text-destructive hover:text-destructive"
                    onClick={() => setDeleting(secret)}
                  >
                    <Trash2 />
                  </Button>
                </TableCell>
              </TableRow>
            ))
          )}
        </TableBody>
      </Table>
    );
  }

  return (
    <div className="grid gap-6">
      <PageHeader
        title="Secrets"
        description="Store keys and credentials your functions use."
        actions={
          <Button onClick={() => setAdding(true)}>
            <Plus />
            Add Secret
          </Button>
        }
      />
      <div role="note" className="flex gap-3 rounded-lg border border-primary/30 bg-primary/5 p-3 text-sm">
        <Lightbulb aria-hidden className="mt-0.5 size-4 shrink-0 text-primary" />
        <p>
          Keep secrets out of your code: read them as environment variables, for example{' '}
          <code className="font-mono text-xs">Deno.env.get('STRIPE_SECRET_KEY')</code>, instead of hard-coding them.
        </p>
      </div>
      <Card className="overflow-hidden">
        <div className="border-b p-3">
          <div className="relative max-w-sm">
            <Search aria-hidden className="absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-muted-foreground" />
            <Input
              type="search"
              aria-label="Search secrets by name"
              placeholder="Search by name"
              className="pl-8"
              value={search}
              onChange={(e) => setSearch(e.target.value)}
            />
          </div>
        </div>
        {body}
      </Card>
      <AddSecretDialog open={adding} onOpenChange={setAdding} />
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete ${deleting?.name ?? 'secret'}?`}
        description="Functions lose this value on their next call. This cannot be undone."
        onConfirm={() => deleting && remove.mutate(deleting)}
        onClose={() => setDeleting(null)}
      />
    </div>
  );
}
