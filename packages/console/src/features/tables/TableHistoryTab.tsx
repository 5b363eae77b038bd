import type { TableResponse } from '@basalt/shared';
import { HistoryTimeline } from '@/features/history/HistoryTimeline';

/** TableHistoryTab is the table page's History tab: the same timeline as /history, for this table. */
export function TableHistoryTab({ table }: { table: TableResponse }) {
  return <HistoryTimeline tableId={table.id} />;
}
