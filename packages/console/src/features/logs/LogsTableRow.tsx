import type { LogPageEntry } from '@basalt/shared';
import { formatDateTime, RelativeTime } from '@/components/ui/relative-time';
import { TableCell, TableRow } from '@/components/ui/table';
import { LogLevelBadge } from './LogLevelBadge';

// From 640 px the row is a table row. Below, four columns would leave the message a sliver, so the row becomes
// a small block instead (and the page hides the header row): level, service and time on one line, the message
// in full under it.
const PHONE_CELL = 'p-0 first:pl-0 last:pr-0 sm:px-3 sm:py-2.5 sm:align-top';

/** LogsTableRow is one entry of /logs: Timestamp (exact and relative), Level, Service, Message. */
export function LogsTableRow({ entry }: { entry: LogPageEntry }) {
  return (
    <TableRow className="flex flex-wrap items-center gap-x-2 gap-y-1.5 px-4 py-3 sm:table-row sm:p-0">
      <TableCell className={`${PHONE_CELL} order-3 ml-auto sm:ml-0 sm:whitespace-nowrap`}>
        <span className="hidden tabular-nums sm:block">{formatDateTime(entry.createdAt)}</span>
        <RelativeTime value={entry.createdAt} className="text-xs text-muted-foreground" />
      </TableCell>
      <TableCell className={`${PHONE_CELL} order-1`}>
        <LogLevelBadge level={entry.level} />
      </TableCell>
      <TableCell className={`${PHONE_CELL} order-2 text-xs font-medium sm:text-sm`}>{entry.service}</TableCell>
      <TableCell className={`${PHONE_CELL} order-4 w-full break-words sm:w-auto`}>{entry.message}</TableCell>
    </TableRow>
  );
}
