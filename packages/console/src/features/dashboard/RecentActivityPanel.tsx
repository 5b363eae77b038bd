import type { ActivityEntry } from '@basalt/shared';
import { Activity, Database, KeyRound, LogIn, type LucideIcon, Rows3, UserPlus } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { RelativeTime } from '@/components/ui/relative-time';
import { Skeleton } from '@/components/ui/skeleton';
import { errorMessage } from '@/lib/api-errors';
import { describeActivity } from './activity-text';
import { useActivityQuery } from './dashboard.queries';

/** ACTIVITY_SKELETON_ROWS is how many placeholder entries show while loading. */
export const ACTIVITY_SKELETON_ROWS = 4;

function iconOf(entry: ActivityEntry): LucideIcon {
  if (entry.resource === 'tables') return Database;
  if (entry.resource.startsWith('table.')) return Rows3;
  if (entry.resource === 'apiKeys') return KeyRound;
  if (entry.action === 'REGISTER') return UserPlus;
  if (entry.action === 'LOGIN' || entry.action === 'LOGOUT') return LogIn;
  return Activity;
}

/** RecentActivityPanel is the dashboard's feed: 300 px high, ten entries a page, Previous and Next. */
export function RecentActivityPanel() {
  const [page, setPage] = useState(1);
  const activity = useActivityQuery(page);
  const pagination = activity.data?.pagination;

  let body: ReactNode;
  if (activity.isPending) {
    body = Array.from({ length: ACTIVITY_SKELETON_ROWS }, (_, i) => (
      // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity.
      <li key={i} className="flex items-center gap-3" data-testid="activity-skeleton-row">
        <Skeleton className="size-8 rounded-full" />
        <div className="grid flex-1 gap-1.5">
          <Skeleton className="h-3.5 w-3/4" />
          <Skeleton className="h-3 w-1/3" />
        </div>
      </li>
    ));
  } else if (activity.isError) {
    body = <EmptyState title="Could not load activity" description={errorMessage(activity.error)} />;
  } else if (activity.data.data.length === 0) {
    body = <EmptyState icon={Activity} title="No recent activity" />;
  } else {
    body = activity.data.data.map((entry) => {
      const Icon = iconOf(entry);
      return (
        <li key={entry.id} className="flex items-center gap-3">
          <span className="flex size-8 shrink-0 items-center justify-center rounded-full bg-muted text-muted-foreground">
            <Icon aria-hidden className="size-4" />
          </span>
          <div className="grid min-w-0 gap-0.5">
            <span className="truncate text-sm">{describeActivity(entry)}</span>
            <RelativeTime value={entry.createdAt} className="text-xs text-muted-foreground" />
          </div>
        </li>
      );
    });
  }

  return (
    <Card className="flex flex-col">
      <CardHeader>
        <CardTitle>Recent Activity</CardTitle>
        <CardDescription>What happened on your account lately.</CardDescription>
      </CardHeader>
      <ul aria-label="Recent activity" className="grid h-[300px] content-start gap-3 overflow-y-auto px-5 sm:px-6">
        {body}
      </ul>
      <div className="mt-auto flex items-center justify-between gap-2 border-t px-5 py-3 sm:px-6">
        <span className="text-xs text-muted-foreground">
          {pagination ? `Page ${pagination.currentPage} of ${pagination.totalPages}` : ''}
        </span>
        <div className="flex gap-2">
          <Button variant="outline" size="sm" disabled={!pagination?.hasPrevious} onClick={() => setPage((p) => p - 1)}>
            Previous
          </Button>
          <Button variant="outline" size="sm" disabled={!pagination?.hasNext} onClick={() => setPage((p) => p + 1)}>
            Next
          </Button>
        </div>
      </div>
    </Card>
  );
}
