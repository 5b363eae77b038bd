import type { EndUserSummary } from '@basalt/shared';
import { Badge } from '@/components/ui/badge';
import { formatDateTime, formatRelativeTime } from '@/components/ui/relative-time';
import { SkeletonTableRows } from '@/components/ui/skeleton-table-rows';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { EmailText } from './EmailText';
import { isBanned, UserActionsMenu } from './UserActionsMenu';

const SKELETON_CELLS = [
  { skeleton: 'h-4 w-20' },
  { skeleton: 'h-4 w-24' },
  { skeleton: 'h-4 w-40' },
  { skeleton: 'h-4 w-28' },
  { skeleton: 'ml-auto size-7' },
];

/** UserRowActions are what a row's menu does. */
export interface UserRowActions {
  onEdit: (user: EndUserSummary) => void;
  onDelete: (user: EndUserSummary) => void;
  onBan: (user: EndUserSummary, banned: boolean) => void;
  onResetPassword: (user: EndUserSummary) => void;
}

/** EndUsersTable shows a page of the app's users: ID, Username, Email, Created At, Actions, and status. */
export function EndUsersTable({
  users,
  loading,
  actions,
}: {
  users: EndUserSummary[];
  loading: boolean;
  actions: UserRowActions;
}) {
  return (
    <Table aria-label="Users">
      <TableHeader>
        <TableRow className="hover:bg-transparent">
          <TableHead className="hidden sm:table-cell">ID</TableHead>
          <TableHead>Username</TableHead>
          <TableHead className="hidden sm:table-cell">Email</TableHead>
          <TableHead className="hidden sm:table-cell">Created At</TableHead>
          <TableHead className="hidden lg:table-cell">Last sign-in</TableHead>
          <TableHead className="w-16 text-right">Actions</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {loading ? (
          <SkeletonTableRows rows={5} cells={SKELETON_CELLS} />
        ) : (
          users.map((user) => (
            <TableRow key={user.id}>
              <TableCell className="hidden sm:table-cell">
                <code className="font-mono text-xs text-muted-foreground" title={user.id}>
                  {user.id.slice(0, 8)}
                </code>
              </TableCell>
              <TableCell>
                <div className="flex flex-wrap items-center gap-1.5">
                  <span className="font-medium [overflow-wrap:anywhere]">{user.username}</span>
                  {isBanned(user) && <Badge variant="destructive">Banned</Badge>}
                  {!user.confirmed && <Badge variant="warning">Unconfirmed</Badge>}
                </div>
                {/* On phones the email and the date sit under the name: three narrow columns would not fit. */}
                <div className="mt-0.5 grid text-xs text-muted-foreground sm:hidden">
                  <EmailText email={user.email} />
                  <span>Created {formatDateTime(user.createdAt)}</span>
                </div>
              </TableCell>
              <TableCell className="hidden sm:table-cell">
                <EmailText email={user.email} />
              </TableCell>
              <TableCell className="hidden whitespace-nowrap text-muted-foreground sm:table-cell">
                <span title={formatRelativeTime(user.createdAt)}>{formatDateTime(user.createdAt)}</span>
              </TableCell>
              <TableCell className="hidden whitespace-nowrap text-muted-foreground lg:table-cell">
                {user.lastSignInAt ? (
                  <span title={formatDateTime(user.lastSignInAt)}>{formatRelativeTime(user.lastSignInAt)}</span>
                ) : (
                  'Never'
                )}
              </TableCell>
              <TableCell className="text-right">
                <UserActionsMenu
                  user={user}
                  onEdit={() => actions.onEdit(user)}
                  onDelete={() => actions.onDelete(user)}
                  onBan={(banned) => actions.onBan(user, banned)}
                  onResetPassword={() => actions.onResetPassword(user)}
                />
              </TableCell>
            </TableRow>
          ))
        )}
      </TableBody>
    </Table>
  );
}
