import type { HistoryChange, TableSchema } from '@basalt/shared';
import { History, RotateCcw, X } from 'lucide-react';
import { useId } from 'react';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { formatDateTime } from '@/components/ui/relative-time';
import { ChangeBadge, changeSubject } from './ChangeBadge';
import { ChangeDiffView } from './ChangeDiffView';
import { countOf } from './history.queries';

/**
 * RevertPreviewPanel is the comparison panel of a selected version: the later changes that restoring it
 * reverts, oldest first, in a 400 px list, and the Restore button.
 */
export function RevertPreviewPanel({
  version,
  later,
  columns,
  restoring,
  onRestore,
  onClear,
  subject = 'table',
}: {
  version: HistoryChange | null;
  later: readonly HistoryChange[];
  columns?: TableSchema;
  restoring: boolean;
  onRestore: () => void;
  onClear: () => void;
  /** What a version is of, in words: "table", or "SQL function". */
  subject?: string;
}) {
  const titleId = useId();
  return (
    <section aria-labelledby={titleId} className="min-w-0">
      <Card className="flex flex-col overflow-hidden">
        <div className="flex flex-wrap items-start justify-between gap-3 border-b p-4">
          <div className="min-w-0">
            <h3 id={titleId} className="text-base font-semibold tracking-tight">
              Changes That Will Be Reverted
            </h3>
            <p className="mt-0.5 text-sm text-muted-foreground">
              {version
                ? later.length > 0
                  ? `Restoring version #${version.id} reverts ${countOf(later.length, 'change')}, oldest first.`
                  : `Version #${version.id} is the latest: restoring it changes nothing.`
                : 'Restoring a version reverts every change made after it.'}
            </p>
          </div>
          {version && (
            <div className="flex shrink-0 gap-2">
              <Button variant="ghost" size="sm" onClick={onClear}>
                <X />
                Clear
              </Button>
              <Button size="sm" onClick={onRestore} disabled={restoring || later.length === 0}>
                <RotateCcw />
                {restoring ? 'Restoring...' : 'Restore'}
              </Button>
            </div>
          )}
        </div>
        {version ? (
          <ol aria-label="Changes that will be reverted" className="h-[400px] divide-y overflow-y-auto">
            {later.map((change) => (
              <li key={change.id} className="grid gap-1.5 px-4 py-3">
                <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
                  <ChangeBadge change={change} />
                  <span className="text-sm font-medium">{changeSubject(change)}</span>
                  <span className="text-xs text-muted-foreground">{formatDateTime(change.timestamp)}</span>
                  <span className="font-mono text-xs text-muted-foreground">#{change.id}</span>
                </div>
                <ChangeDiffView change={change} columns={columns} />
              </li>
            ))}
            {later.length === 0 && (
              <li className="px-4 py-10 text-center text-sm text-muted-foreground">No later changes.</li>
            )}
          </ol>
        ) : (
          <EmptyState
            icon={History}
            title="No version selected"
            description={`Pick a change on the timeline to see what restoring the ${subject} to it would revert.`}
            className="lg:h-[400px] lg:justify-center"
          />
        )}
      </Card>
    </section>
  );
}
