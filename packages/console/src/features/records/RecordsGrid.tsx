import type { RecordRow, TableSchema } from '@basalt/shared';
import { ArrowDown, ArrowUp, ArrowUpDown, Pencil, Trash2 } from 'lucide-react';
import { useRef } from 'react';
import { Button } from '@/components/ui/button';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { cn } from '@/lib/cn';
import { formatCellValue } from './record-values';
import type { RecordsSort } from './records.api';
import { useRowWindow, WINDOW_FROM } from './useRowWindow';

// The Actions column stays in view while a wide table scrolls sideways.
const STICKY_ACTIONS = 'sticky right-0 bg-card shadow-[-1px_0_0_var(--color-border)]';

const ariaSort = (sort: RecordsSort | null | undefined, column: string) =>
  sort?.column === column ? (sort.direction === 'asc' ? 'ascending' : 'descending') : 'none';

function SortIcon({ sort, column }: { sort: RecordsSort | null | undefined; column: string }) {
  const className = 'ml-1 inline size-3.5 align-[-2px]';
  if (sort?.column !== column) return <ArrowUpDown aria-hidden className={cn(className, 'opacity-40')} />;
  return sort.direction === 'asc' ? (
    <ArrowUp aria-hidden className={className} />
  ) : (
    <ArrowDown aria-hidden className={className} />
  );
}

/**
 * RecordsGrid shows one page of records: a column per schema field (id first) and the row actions. With onSort
 * the headers sort the table on the server (by that column, then by id); a long page renders only the rows in
 * view (useRowWindow).
 */
export function RecordsGrid({
  schema,
  rows,
  sort,
  onSort,
  onEdit,
  onDelete,
}: {
  schema: TableSchema;
  rows: readonly RecordRow[];
  sort?: RecordsSort | null;
  onSort?: (column: string) => void;
  /** Absent when the caller's project role may not change records (a table shared with it): no buttons. */
  onEdit?: (record: RecordRow) => void;
  onDelete?: (record: RecordRow) => void;
}) {
  const columns = Object.entries(schema);
  const scrollBox = useRef<HTMLDivElement>(null);
  const firstRow = useRef<HTMLTableRowElement>(null);
  const rowWindow = useRowWindow(rows.length, scrollBox, firstRow);
  const shown = rows.slice(rowWindow.start, rowWindow.end);
  return (
    <div
      ref={scrollBox}
      onScroll={rowWindow.onScroll}
      className={cn(rows.length >= WINDOW_FROM && 'max-h-[70vh] overflow-y-auto')}
      data-testid="records-scroll"
    >
      <Table aria-label="Records" aria-rowcount={rows.length + 1}>
        <TableHeader>
          <TableRow className="hover:bg-transparent">
            {columns.map(([name, definition]) => (
              <TableHead key={name} className="font-mono" aria-sort={onSort ? ariaSort(sort, name) : undefined}>
                {onSort ? (
                  <button
                    type="button"
                    className="inline-flex items-center whitespace-nowrap hover:text-foreground"
                    onClick={() => onSort(name)}
                  >
                    {name}
                    <span className="ml-1.5 font-sans font-normal text-muted-foreground/70">{definition.type}</span>
                    <SortIcon sort={sort} column={name} />
                  </button>
                ) : (
                  <>
                    {name}
                    <span className="ml-1.5 font-sans font-normal text-muted-foreground/70">{definition.type}</span>
                  </>
                )}
              </TableHead>
            ))}
            <TableHead className={cn('w-24 text-right', STICKY_ACTIONS)}>Actions</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {rowWindow.before > 0 && <tr aria-hidden style={{ height: rowWindow.before }} />}
          {shown.map((row, i) => (
            <TableRow
              key={row.id}
              ref={i === 0 ? firstRow : undefined}
              aria-rowindex={rowWindow.start + i + 2}
              className="group"
            >
              {columns.map(([name, definition]) => {
                const text = formatCellValue(row[name], definition.type);
                const structured = definition.type === 'json' || definition.type === 'array';
                return (
                  <TableCell
                    key={name}
                    title={text.length > 40 ? text : undefined}
                    className={cn(
                      'max-w-64 truncate',
                      (structured || name === 'id') && 'font-mono text-[13px]',
                      name === 'id' && 'text-muted-foreground',
                    )}
                  >
                    {text}
                  </TableCell>
                );
              })}
              <TableCell className={cn('py-1.5 text-right group-hover:bg-muted', STICKY_ACTIONS)}>
                <div className="flex justify-end gap-1">
                  {onEdit && (
                    <Button
                      variant="ghost"
                      size="icon-sm"
                      aria-label={`Edit record ${row.id}`}
                      onClick={() => onEdit(row)}
                    >
                      <Pencil />
                    </Button>
                  )}
                  {onDelete && (
                    <Button
                      variant="ghost"
                      size="icon-sm"
                      aria-label={`Delete record ${row.id}`}
                      className="text-destructive hover:text-destructive"
                      onClick={() => onDelete(row)}
                    >
                      <Trash2 />
                    </Button>
                  )}
                </div>
              </TableCell>
            </TableRow>
          ))}
          {rowWindow.after > 0 && <tr aria-hidden style={{ height: rowWindow.after }} />}
        </TableBody>
      </Table>
    </div>
  );
}
