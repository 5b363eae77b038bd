import type { HistoryChange } from '@basalt/shared';
import { Badge } from '@/components/ui/badge';
import { changeLabel } from './history-summary';

const variantOf = (changeType: string) =>
  changeType.endsWith('DELETE') ? 'destructive' : changeType.endsWith('UPDATE') ? 'warning' : 'default';

/** ChangeBadge names a change's type in its colour: created (primary), updated (amber), deleted (red). */
export function ChangeBadge({ change }: { change: Pick<HistoryChange, 'changeType'> }) {
  return <Badge variant={variantOf(change.changeType)}>{changeLabel(change.changeType)}</Badge>;
}

/** AppUserBadge names the app's end user who made a change through the app; nothing for the account's own. */
export function AppUserBadge({ change }: { change: Pick<HistoryChange, 'appUser'> }) {
  if (!change.appUser) return null;
  return (
    <Badge variant="outline" title={change.appUser.id} className="max-w-full whitespace-normal break-all">
      by {change.appUser.name} (app user)
    </Badge>
  );
}

/** changeSubject says what a change touched: "Record 3", or the table for schema changes. */
export function changeSubject(change: Pick<HistoryChange, 'recordId' | 'tableName'>): string {
  return change.recordId === null ? change.tableName : `Record ${change.recordId}`;
}
