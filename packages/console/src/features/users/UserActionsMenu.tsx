import type { EndUserSummary } from '@basalt/shared';
import { Ban, KeyRound, MoreHorizontal, Pencil, ShieldCheck, Trash2 } from 'lucide-react';
import { Button } from '@/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';

/** isBanned tells whether a user's ban is still running. */
export const isBanned = (user: EndUserSummary, now = Date.now()) =>
  user.bannedUntil !== null && new Date(user.bannedUntil).getTime() > now;

/** UserActionsMenu is a user row's actions: edit, send a reset mail, ban or unban, delete. */
export function UserActionsMenu({
  user,
  onEdit,
  onDelete,
  onBan,
  onResetPassword,
}: {
  user: EndUserSummary;
  onEdit: () => void;
  onDelete: () => void;
  onBan: (banned: boolean) => void;
  onResetPassword: () => void;
}) {
  const banned = isBanned(user);
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size="icon-sm" aria-label={`Actions for ${user.username}`}>
          <MoreHorizontal />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        <DropdownMenuItem onSelect={onEdit}>
          <Pencil />
          Edit
        </DropdownMenuItem>
        <DropdownMenuItem onSelect={onResetPassword}>
          <KeyRound />
          Send password reset
        </DropdownMenuItem>
        <DropdownMenuItem onSelect={() => onBan(!banned)}>
          {banned ? <ShieldCheck /> : <Ban />}
          {banned ? 'Unban' : 'Ban'}
        </DropdownMenuItem>
        <DropdownMenuSeparator />
        <DropdownMenuItem variant="destructive" onSelect={onDelete}>
          <Trash2 />
          Delete
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
