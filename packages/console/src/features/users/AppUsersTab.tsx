import type { EndUserSummary } from '@basalt/shared';
import { Plus, Search, Users } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { EmptyState, LoadErrorState } from '@/components/ui/empty-state';
import { Input } from '@/components/ui/input';
import { countOf, Pager } from '@/components/ui/pager';
import { AddUserDialog } from './AddUserDialog';
import { EditUserDialog } from './EditUserDialog';
import { EndUsersTable } from './EndUsersTable';
import { useListSearch } from './useListSearch';
import { useBanUserMutation, useDeleteUserMutation, useEndUsersQuery, useResetPasswordMutation } from './users.queries';

/** USERS_PAGE_SIZE is how many users a page shows. */
export const USERS_PAGE_SIZE = 20;

/** AppUsersTab lists the app's users, searched and paged on the server, and adds, edits, bans and deletes them. */
export function AppUsersTab() {
  const { text, setText, search, page, setPage } = useListSearch();
  const users = useEndUsersQuery({ page, limit: USERS_PAGE_SIZE, ...(search ? { search } : {}) });
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<EndUserSummary | null>(null);
  const [deleting, setDeleting] = useState<EndUserSummary | null>(null);
  const remove = useDeleteUserMutation();
  const ban = useBanUserMutation();
  const reset = useResetPasswordMutation();
  const list = users.data?.data ?? [];
  const pagination = users.data?.pagination;

  let body: ReactNode;
  if (users.isError && !users.data) {
    body = <LoadErrorState title="Failed to fetch users" error={users.error} onRetry={() => void users.refetch()} />;
  } else if (users.data && list.length === 0) {
    body = search ? (
      <EmptyState
        icon={Search}
        title="No users matching your search criteria"
        description={`Nothing matches "${search}".`}
      />
    ) : (
      <EmptyState
        icon={Users}
        title="No users available"
        description="Users appear here when they sign up to your app, or when you add them."
        action={
          <Button size="sm" onClick={() => setAdding(true)}>
            Add User
          </Button>
        }
      />
    );
  } else {
    body = (
      <>
        <EndUsersTable
          users={list}
          loading={users.isPending}
          actions={{
            onEdit: setEditing,
            onDelete: setDeleting,
            onBan: (user, banned) => ban.mutate({ user, banned }),
            onResetPassword: (user) => reset.mutate(user),
          }}
        />
        {pagination && pagination.totalItems > 0 && (
          <Pager
            summary={countOf(pagination.totalItems, 'user')}
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
      <CardHeader className="gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="grid gap-1.5">
          <CardTitle>App users</CardTitle>
          <CardDescription>
            The people who sign up to your app with its keys. They are not console accounts.
          </CardDescription>
        </div>
        <Button size="sm" onClick={() => setAdding(true)} className="w-fit">
          <Plus />
          Add User
        </Button>
      </CardHeader>
      <div className="px-4 pb-4 sm:px-6">
        <div className="relative max-w-sm">
          <Search
            aria-hidden
            className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-muted-foreground"
          />
          <Input
            type="search"
            aria-label="Search users"
            placeholder="Search by username or email"
            className="pl-8"
            value={text}
            onChange={(e) => setText(e.target.value)}
          />
        </div>
      </div>
      {body}
      <AddUserDialog open={adding} onOpenChange={setAdding} />
      <EditUserDialog user={editing} onClose={() => setEditing(null)} />
      <ConfirmDialog
        open={deleting !== null}
        title="Delete user"
        description={`Are you sure you want to delete the user "${deleting?.username ?? ''}"? This action cannot be undone.`}
        onConfirm={() => deleting && remove.mutate(deleting)}
        onClose={() => setDeleting(null)}
      />
    </Card>
  );
}
