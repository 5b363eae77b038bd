import type { QueryHistoryEntry } from '@basalt/shared';
import { History, Play } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { RelativeTime } from '@/components/ui/relative-time';

/** QueryHistoryPanel lists the project's latest runs; each can be run again or opened in the editor. */
export function QueryHistoryPanel({
  entries,
  onRerun,
  onOpen,
  running,
}: {
  entries: QueryHistoryEntry[];
  onRerun: (entry: QueryHistoryEntry) => void;
  onOpen: (entry: QueryHistoryEntry) => void;
  running: boolean;
}) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Query History</CardTitle>
      </CardHeader>
      <CardContent>
        {entries.length === 0 ? (
          <EmptyState icon={History} title="No queries yet" description="Runs of this project appear here." />
        ) : (
          <ul className="grid max-h-96 gap-2 overflow-y-auto">
            {entries.map((entry) => (
              <li key={entry.id} className="flex items-start gap-2 rounded-md border p-2.5">
                <div className="grid min-w-0 flex-1 gap-1">
                  <div className="flex flex-wrap items-center gap-1.5 text-xs text-muted-foreground">
                    <Badge variant={entry.successful ? 'default' : 'destructive'}>
                      {entry.successful ? 'Success' : 'Failed'}
                    </Badge>
                    {entry.dryRun && <Badge variant="warning">Validation Only</Badge>}
                    {entry.fileId !== null && <Badge variant="outline">File</Badge>}
                    <RelativeTime value={entry.executedAt} />
                    <span>· {Math.round(entry.executionTime)} ms</span>
                  </div>
                  <button
                    type="button"
                    className="truncate text-left font-mono text-xs hover:underline"
                    title="Open in the editor"
                    onClick={() => onOpen(entry)}
                  >
                    {entry.query.slice(0, 200)}
                  </button>
                  {entry.errorMessage && <p className="truncate text-xs text-destructive">{entry.errorMessage}</p>}
                </div>
                <Button
                  variant="ghost"
                  size="icon-sm"
                  aria-label="Re-run"
                  title="Run again"
                  disabled={running || entry.connectionId === null}
                  onClick={() => onRerun(entry)}
                >
                  <Play aria-hidden />
                </Button>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
