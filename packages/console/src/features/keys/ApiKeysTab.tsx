import type { ApiKey } from '@basalt/shared';
import { AlertCircle, KeyRound, Plus, Trash2 } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { formatDate, formatRelativeTime } from '@/components/ui/relative-time';
import { SkeletonTableRows } from '@/components/ui/skeleton-table-rows';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { errorMessage } from '@/lib/api-errors';
import { CreateApiKeyDialog } from './CreateApiKeyDialog';
import { DeleteApiKeyDialog } from './DeleteApiKeyDialog';
import { useApiKeysQuery } from './keys.queries';

const SKELETON_CELLS = [{ skeleton: 'h-4 w-32' }, { skeleton: 'h-4 w-24' }, { skeleton: 'ml-auto size-7' }];

/** ApiKeysTab lists the account's API keys, creates them (showing the secret once) and deletes them. */
export function ApiKeysTab() {
  const keys = useApiKeysQuery();
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<ApiKey | null>(null);

  let body: ReactNode;
  if (keys.isError) {
    body = (
      <EmptyState
        icon={AlertCircle}
        title="Failed to load API keys"
        description={errorMessage(keys.error)}
        action={
          <Button variant="outline" size="sm" onClick={() => void keys.refetch()}>
            Retry
          </Button>
        }
      />
    );
  } else if (keys.data?.length === 0) {
    body = (
      <EmptyState
        icon={KeyRound}
        title="No API keys yet"
        description="Create a key to call the record API from your apps and scripts."
      />
    );
  } else {
    body = (
      <Table aria-label="API keys">
        <TableHeader>
          <TableRow className="hover:bg-transparent">
            <TableHead>Name</TableHead>
            <TableHead>Created</TableHead>
            <TableHead className="w-16 text-right">Actions</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {keys.isPending ? (
            <SkeletonTableRows rows={3} cells={SKELETON_CELLS} />
          ) : (
            keys.data.map((key) => (
              <TableRow key={key.id}>
                <TableCell>
                  <div className="grid gap-0.5">
                    <span className="font-medium break-all">{key.name}</span>
                    <code className="font-mono text-xs text-muted-foreground">{key.prefix}…</code>
                  </div>
                </TableCell>
                <TableCell className="whitespace-nowrap text-muted-foreground">
                  <span title={formatRelativeTime(key.createdAt)}>{formatDate(key.createdAt)}</span>
                </TableCell>
                <TableCell className="text-right">
                  <Button
                    variant="ghost"
                    size="icon-sm"
                    aria-label={`Delete API key ${key.name}`}
                    className="text-destructive hover:text-destructive"
                    onClick={() => setDeleting(key)}
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
    <Card className="overflow-hidden">
      <CardHeader className="gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="grid gap-1.5">
          <CardTitle>API Keys</CardTitle>
          <CardDescription>
            Keys grant full access to your account. Keep them secret, and delete a key you no longer use.
          </CardDescription>
        </div>
        <Button size="sm" onClick={() => setCreating(true)} className="w-fit">
          <Plus />
          Create API Key
        </Button>
      </CardHeader>
      {body}
      <CreateApiKeyDialog open={creating} onOpenChange={setCreating} />
      <DeleteApiKeyDialog apiKey={deleting} onClose={() => setDeleting(null)} />
    </Card>
  );
}
