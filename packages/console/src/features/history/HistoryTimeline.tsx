import type { HistoryChange } from '@basalt/shared';
import { useMemo, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { formatDateTime } from '@/components/ui/relative-time';
import { Skeleton } from '@/components/ui/skeleton';
import { useTablesQuery } from '@/features/tables/tables.queries';
import { HistoryLoadFailedCard, NoHistoryCard } from './HistoryStateCards';
import {
  countOf,
  useCheckpointsQuery,
  useHistoryTimelineQuery,
  useRestoreVersionMutation,
  useRevertChangeMutation,
} from './history.queries';
import { changesAfter, groupChangesByDay } from './history-days';
import { changeLabel } from './history-summary';
import { RestoreAccessNotice } from './RestoreAccessNotice';
import { RevertPreviewPanel } from './RevertPreviewPanel';
import { TimelineChange } from './TimelineChange';

// The Timeline View of /history and the History tab of /tables/:id: a table's changes by day, newest first,
// each with Revert; a selected version shows the later changes that Restore would revert.

function useCheckpointNames(tableId: number) {
  const checkpoints = useCheckpointsQuery(tableId);
  return useMemo(() => {
    const names = new Map<number, string[]>();
    for (const checkpoint of checkpoints.data ?? []) {
      if (checkpoint.changeId === null) continue;
      names.set(checkpoint.changeId, [...(names.get(checkpoint.changeId) ?? []), checkpoint.name]);
    }
    return names;
  }, [checkpoints.data]);
}

function TimelineSkeleton() {
  return (
    <div role="status" aria-label="Loading history" className="grid gap-3 p-4">
      {[0, 1, 2].map((n) => (
        <Skeleton key={n} className="h-20 w-full" />
      ))}
    </div>
  );
}

/** HistoryTimeline is a table's change timeline with Revert, version selection and Restore. */
export function HistoryTimeline({ tableId }: { tableId: number }) {
  const timeline = useHistoryTimelineQuery(tableId);
  const checkpointNames = useCheckpointNames(tableId);
  // The table's column types: a date reads as the records grid shows it. A deleted table has none left.
  const columns = useTablesQuery().data?.find((table) => table.id === tableId)?.schema;
  const revert = useRevertChangeMutation();
  const restore = useRestoreVersionMutation();
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [keepAccess, setKeepAccess] = useState(false);

  const changes = useMemo(() => timeline.data?.pages.flatMap((page) => page.data) ?? [], [timeline.data]);
  const groups = useMemo(() => groupChangesByDay(changes), [changes]);
  const selected = changes.find((change) => change.id === selectedId) ?? null;
  const later = useMemo(() => (selected ? changesAfter(changes, selected.id) : []), [changes, selected]);
  const total = timeline.data?.pages[0]?.pagination.totalItems ?? 0;

  if (timeline.isPending) {
    return (
      <Card>
        <TimelineSkeleton />
      </Card>
    );
  }
  if (timeline.isError) {
    return <HistoryLoadFailedCard error={timeline.error} onRetry={() => void timeline.refetch()} />;
  }
  if (changes.length === 0) return <NoHistoryCard />;

  const revertChange = (change: HistoryChange) => revert.mutate({ id: change.id, tableId: change.tableId });
  return (
    <div className="grid grid-cols-1 gap-4 lg:grid-cols-2 lg:items-start">
      <Card className="min-w-0 overflow-hidden">
        <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1 border-b p-4">
          <h3 className="text-base font-semibold tracking-tight">Timeline</h3>
          <span className="text-xs text-muted-foreground">
            Showing {changes.length.toLocaleString()} of {countOf(total, 'change')}, newest first
          </span>
        </div>
        <section
          aria-label="Timeline"
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard.
          tabIndex={0}
          className="h-[400px] overflow-y-auto outline-none focus-visible:ring-2 focus-visible:ring-ring/40"
        >
          {groups.map((group) => (
            <section key={group.key} aria-labelledby={`history-day-${group.key}`}>
              <h4
                id={`history-day-${group.key}`}
                className="sticky top-0 z-10 border-b bg-card/95 px-4 py-2 text-xs font-semibold tracking-wide text-muted-foreground uppercase backdrop-blur"
              >
                {group.label}
              </h4>
              {/* One column that may not grow past the panel: a grid item is as wide as its content otherwise, and a
                  long checkpoint name pushed every card (and its Revert) off a phone's screen. */}
              <ol className="grid grid-cols-1 gap-2 p-3">
                {group.changes.map((change) => (
                  <TimelineChange
                    key={change.id}
                    change={change}
                    columns={columns}
                    selected={change.id === selectedId}
                    checkpointNames={checkpointNames.get(change.id) ?? []}
                    reverting={revert.isPending && revert.variables?.id === change.id}
                    onSelect={() => setSelectedId(change.id === selectedId ? null : change.id)}
                    onRevert={() => revertChange(change)}
                  />
                ))}
              </ol>
            </section>
          ))}
          {timeline.hasNextPage && (
            <div className="flex justify-center border-t px-4 py-3">
              <Button
                variant="outline"
                size="sm"
                disabled={timeline.isFetchingNextPage}
                onClick={() => void timeline.fetchNextPage()}
              >
                {timeline.isFetchingNextPage ? 'Loading...' : 'Load more'}
              </Button>
            </div>
          )}
        </section>
      </Card>
      <RevertPreviewPanel
        version={selected}
        later={later}
        columns={columns}
        restoring={restore.isPending}
        onRestore={() => {
          setKeepAccess(false);
          setConfirming(true);
        }}
        onClear={() => setSelectedId(null)}
        subject={tableId < 0 ? 'SQL function' : 'table'}
      />
      <ConfirmDialog
        open={confirming && selected !== null}
        title="Restore this version?"
        description={
          selected &&
          `The ${tableId < 0 ? 'SQL function' : 'table'} returns to how it was after change #${selected.id} (${changeLabel(selected.changeType)}, ${formatDateTime(selected.timestamp)}). ${countOf(later.length, 'later change')} will be reverted.`
        }
        confirmLabel="Restore"
        onConfirm={() => {
          if (!selected) return;
          restore.mutate(
            { id: selected.id, tableId: selected.tableId, keepAccess },
            { onSuccess: () => setSelectedId(null) },
          );
        }}
        onClose={() => setConfirming(false)}
      >
        {confirming && selected && (
          <RestoreAccessNotice
            previewPath={`/api/history/${selected.id}/restore-preview`}
            keep={keepAccess}
            onKeepChange={setKeepAccess}
          />
        )}
      </ConfirmDialog>
    </div>
  );
}
