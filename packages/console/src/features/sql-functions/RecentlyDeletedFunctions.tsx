import { History, Undo2 } from 'lucide-react';
import { useMemo } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { RelativeTime } from '@/components/ui/relative-time';
import { useFunctionHistoryQuery, useRevertChangeMutation } from '@/features/history/history.queries';
import { deletedFunctions } from './sql-functions-deleted';

/**
 * RecentlyDeletedFunctions lists the SQL functions deleted among the functions' latest history entries, each with
 * Restore (the revert of its deletion: it is defined again with its id) and a link to its history. Nothing shows
 * when none was deleted.
 */
export function RecentlyDeletedFunctions({ liveIds }: { liveIds: ReadonlySet<number> }) {
  const history = useFunctionHistoryQuery();
  const revert = useRevertChangeMutation();
  const deleted = useMemo(() => deletedFunctions(history.data?.data ?? [], liveIds), [history.data, liveIds]);
  if (deleted.length === 0) return null;
  return (
    <section aria-labelledby="recently-deleted" className="grid gap-3">
      <h2 id="recently-deleted" className="text-base font-semibold tracking-tight">
        Recently deleted
      </h2>
      <ul className="grid gap-2">
        {deleted.map(({ id, name, deletion }) => (
          <li
            key={id}
            aria-label={`Deleted ${name}`}
            className="flex flex-col gap-2 rounded-lg border border-dashed p-3 sm:flex-row sm:items-center sm:justify-between"
          >
            <div className="grid min-w-0 gap-0.5">
              <code className="truncate font-mono text-sm">{name}</code>
              <span className="text-xs text-muted-foreground">
                Deleted <RelativeTime value={deletion.timestamp} />
              </span>
            </div>
            <div className="flex shrink-0 gap-2">
              <Button asChild variant="ghost" size="sm">
                <Link to={`/history/${-id}`} aria-label={`History of ${name}`}>
                  <History />
                  History
                </Link>
              </Button>
              <Button
                variant="outline"
                size="sm"
                aria-label={`Restore ${name}`}
                disabled={revert.isPending && revert.variables?.id === deletion.id}
                onClick={() => revert.mutate({ id: deletion.id, tableId: deletion.tableId })}
              >
                <Undo2 />
                Restore
              </Button>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
