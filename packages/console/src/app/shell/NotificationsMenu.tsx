import { Bell, BellOff } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { formatRelativeTime } from '@/components/ui/relative-time';
import { useNotificationsQuery, useReadNotificationsMutation } from '@/features/billing/billing.queries';
import { cn } from '@/lib/cn';

/** NotificationsMenu is the bell menu: the account's notifications (usage warnings), marked read when opened. */
export function NotificationsMenu() {
  const notifications = useNotificationsQuery();
  const read = useReadNotificationsMutation();
  const list = notifications.data ?? [];
  const unread = list.filter((n) => !n.read).length;
  return (
    <DropdownMenu
      onOpenChange={(open) => {
        if (!open && unread > 0) read.mutate();
      }}
    >
      <DropdownMenuTrigger asChild>
        <Button
          variant="ghost"
          size="icon"
          aria-label={unread > 0 ? `Notifications (${unread} new)` : 'Notifications'}
          className="relative"
        >
          <Bell />
          {unread > 0 && (
            <span
              aria-hidden
              className="absolute top-1 right-1 flex size-4 items-center justify-center rounded-full bg-destructive text-[10px] font-semibold text-destructive-foreground"
            >
              {unread > 9 ? '9+' : unread}
            </span>
          )}
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-80">
        <DropdownMenuLabel>Notifications</DropdownMenuLabel>
        <DropdownMenuSeparator />
        {unread === 0 && (
          <div className="flex flex-col items-center gap-2 px-2 py-6 text-center text-sm text-muted-foreground">
            <BellOff aria-hidden className="size-5" />
            No new notifications
          </div>
        )}
        {list
          .filter((n) => !n.read || unread === 0)
          .slice(0, unread === 0 ? 3 : 10)
          .map((n) => (
            <DropdownMenuItem key={n.id} asChild>
              <Link to="/billing?tab=usage" className="grid gap-0.5">
                <span className={cn('text-sm', !n.read && 'font-medium')}>{n.title}</span>
                <span className="text-xs text-muted-foreground">{n.message}</span>
                <span className="text-xs text-muted-foreground">{formatRelativeTime(n.createdAt)}</span>
              </Link>
            </DropdownMenuItem>
          ))}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
