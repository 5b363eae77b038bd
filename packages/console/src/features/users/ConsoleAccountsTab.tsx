import type { ConsoleAccountSummary } from '@basalt/shared';
import { Search, ShieldCheck, Trash2, UserCog } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { EmptyState, LoadErrorState } from '@/components/ui/empty-state';
import { Input } from '@/components/ui/input';
import { countOf, Pager } from '@/components/ui/pager';
import { formatDateTime } from '@/components/ui/relative-time';
import { SkeletonTableRows } from '@/components/ui/skeleton-table-rows';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { EmailText } from './EmailText';
import { useListSearch } from './useListSearch';
import {
  useConsoleAccountsQuery,
  useDeleteConsoleAccountMutation,
  useUpdateConsoleAccountMutation,
} from './users.queries';

const SKELETON_CELLS = [
  { skeleton: 'h-4 w-24' },
  { skeleton: 'h-4 w-40' },
  { skeleton: 'h-4 w-28' },
  { skeleton: 'ml-auto h-7 w-24' },
];

/**
 * ConsoleAccountsTab is an instance administrator's view of the console accounts (not any app's users): search,
 * make administrator or not, delete with everything the account owns. The signed-in administrator's own row has
 * no actions (Settings deletes one's own account).
 */
export function ConsoleAccountsTab({ selfId }: { selfId: string }) {
  const { text, setText, search, page, setPage } = useListSearch();
  const accounts = useConsoleAccountsQuery({ page, limit: 20, ...(search ? { search } : {}) });
  const update = useUpdateConsoleAccountMutation();
  const remove = useDeleteConsoleAccountMutation();
  const [deleting, setDeleting] = useState<ConsoleAccountSummary | null>(null);
  const list = accounts.data?.data ?? [];
  const pagination = accounts.data?.pagination;

  let body: ReactNode;
  if (accounts.isError && !accounts.data) {
    body = (
      <LoadErrorState title="Failed to fetch accounts" error={accounts.error} onRetry={() => void accounts.refetch()} />
    );
  } else if (accounts.data && list.length === 0) {
    body = <EmptyState icon={Search} title="No accounts matching your search criteria" />;
  } else {
    body = (
      <>
        <Table aria-label="Console accounts">
          <TableHeader>
            <TableRow className="hover:bg-transparent">
              <TableHead>Username</TableHead>
              <TableHead className="hidden sm:table-cell">Email</TableHead>
              <TableHead className="hidden sm:table-cell">Created At</TableHead>
              <TableHead className="text-right">Actions</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {accounts.isPending ? (
              <SkeletonTableRows rows={4} cells={SKELETON_CELLS} />
            ) : (
              list.map((account) => (
                <TableRow key={account.id}>
                  <TableCell>
                    <div className="flex flex-wrap items-center gap-1.5">
                      <span className="font-medium [overflow-wrap:anywhere]">{account.username}</span>
                      {account.isAdmin && <Badge>Admin</Badge>}
                      {account.id === selfId && <Badge variant="secondary">You</Badge>}
                    </div>
                    <span className="mt-0.5 block text-xs text-muted-foreground [overflow-wrap:anywhere] sm:hidden">
                      {account.email}
                    </span>
                  </TableCell>
                  <TableCell className="hidden sm:table-cell">
                    <EmailText email={account.email} />
                  </TableCell>
                  <TableCell className="hidden whitespace-nowrap text-muted-foreground sm:table-cell">
                    {formatDateTime(account.createdAt)}
                  </TableCell>
                  <TableCell className="text-right">
                    {account.id !== selfId && (
                      <div className="flex justify-end gap-1">
                        <Button
                          variant="ghost"
                          size="sm"
                          onClick={() => update.mutate({ account, isAdmin: !account.isAdmin })}
                        >
                          {account.isAdmin ? <UserCog /> : <ShieldCheck />}
                          <span className="hidden sm:inline">{account.isAdmin ? 'Remove admin' : 'Make admin'}</span>
                        </Button>
                        <Button
                          variant="ghost"
                          size="icon-sm"
                          aria-label={`Delete account ${account.username}`}
                          className="text-destructive hover:text-destructive"
                          onClick={() => setDeleting(account)}
                        >
                          <Trash2 />
                        </Button>
                      </div>
                    )}
                  </TableCell>
                </TableRow>
              ))
            )}
          </TableBody>
        </Table>
        {pagination && pagination.totalItems > 0 && (
          <Pager
            summary={countOf(pagination.totalItems, 'account')}
            page={pagination.currentPage}
            totalPages={pagination.totalPages}
            onPageChange={setPage}
          />
        )}
      </>
    );
  }

  return (
    <Card className="overflow-hidden">
      <CardHeader>
        <CardTitle>Console accounts</CardTitle>
        <CardDescription>
          Everyone who signs in to this Basalt instance's console. Only administrators see this.
        </CardDescription>
      </CardHeader>
      <div className="px-4 pb-4 sm:px-6">
        <Input
          type="search"
          aria-label="Search accounts"
          placeholder="Search by username or email"
          className="max-w-sm"
          value={text}
          onChange={(e) => setText(e.target.value)}
        />
      </div>
      {body}
      <ConfirmDialog
        open={deleting !== null}
        title="Delete account"
        description={`Are you sure you want to delete the account "${deleting?.username ?? ''}"? Its tables, keys, app and app users are deleted too. This action cannot be undone.`}
        onConfirm={() => deleting && remove.mutate(deleting)}
        onClose={() => setDeleting(null)}
      />
    </Card>
  );
}
