import type { HistoryChange, TableSchema } from '@basalt/shared';
import { Flag, Undo2 } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { formatDateTime } from '@/components/ui/relative-time';
import { cn } from '@/lib/cn';
import { AppUserBadge, ChangeBadge, changeSubject } from './ChangeBadge';
import { ChangeDiffView } from './ChangeDiffView';
import { formatTime } from './history-days';

/** TimelineChange is one change on the timeline: select it as a version, read its diff, or revert it. */
export function TimelineChange({
  change,
  columns,
  selected,
  checkpointNames,
  reverting,
  onSelect,
  onRevert,
}: {
  change: HistoryChange;
  columns?: TableSchema;
  selected: boolean;
  checkpointNames: readonly string[];
  reverting: boolean;
  onSelect: () => void;
  onRevert: () => void;
}) {
  return (
    <li
      aria-label={`Change ${change.id}`}
      className={cn(
        'relative min-w-0 rounded-lg border bg-card p-3 transition-colors',
        selected ? 'border-primary bg-primary/5 ring-1 ring-primary' : 'hover:border-ring/40',
      )}
    >
      <div className="flex items-start gap-2">
        <button
          type="button"
          aria-pressed={selected}
          onClick={onSelect}
          className="-m-1 flex min-w-0 flex-1 flex-wrap items-center gap-x-2 gap-y-1 rounded-md p-1 text-left outline-none focus-visible:ring-2 focus-visible:ring-ring/40"
        >
          <span className="sr-only">Select version {change.id}: </span>
          <span
            aria-hidden
            className={cn(
              'flex size-4 shrink-0 items-center justify-center rounded-full border-2',
              selected ? 'border-primary' : 'border-muted-foreground/40',
            )}
          >
            {selected && <span className="size-2 rounded-full bg-primary" />}
          </span>
          <ChangeBadge change={change} />
          <span className="min-w-0 truncate text-sm font-medium">{changeSubject(change)}</span>
          <time
            dateTime={change.timestamp}
            title={formatDateTime(change.timestamp)}
            className="text-xs whitespace-nowrap text-muted-foreground"
          >
            {formatTime(change.timestamp)}
          </time>
          <span className="font-mono text-xs text-muted-foreground">#{change.id}</span>
          <AppUserBadge change={change} />
        </button>
        <Button
          variant="outline"
          size="sm"
          className="shrink-0"
          aria-label={`Revert change ${change.id}`}
          disabled={reverting}
          onClick={onRevert}
        >
          <Undo2 />
          {reverting ? 'Reverting...' : 'Revert'}
        </Button>
      </div>
      {(checkpointNames.length > 0 || change.revertOf) && (
        <div className="mt-2 flex flex-wrap gap-1.5 pl-6">
          {change.revertOf && <Badge variant="secondary">Reverts #{change.revertOf}</Badge>}
          {checkpointNames.map((name) => (
            <Badge key={name} variant="outline" className="max-w-full whitespace-normal break-words">
              <Flag aria-hidden />
              {name}
            </Badge>
          ))}
        </div>
      )}
      <ChangeDiffView change={change} columns={columns} className="mt-2 pl-6" />
    </li>
  );
}
