import { History } from 'lucide-react';
import { Card } from '@/components/ui/card';
import { EmptyState, LoadErrorState } from '@/components/ui/empty-state';

// The states the Timeline View and the Table View share when they have no changes to show.

/** HistoryLoadFailedCard is a history view whose changes failed to load, with Retry. */
export function HistoryLoadFailedCard({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  return (
    <Card>
      <LoadErrorState title="Failed to load history" error={error} onRetry={onRetry} />
    </Card>
  );
}

/** NoHistoryCard is a history view of a table with no changes yet. */
export function NoHistoryCard() {
  return (
    <Card>
      <EmptyState
        icon={History}
        title="No history yet"
        description="Changes to this table and its records show here."
      />
    </Card>
  );
}
