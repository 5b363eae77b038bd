import type { RecordRow, TableSchema } from '@basalt/shared';
import { useVirtualizer } from '@tanstack/react-virtual';
import { ArrowDown, ArrowUp, ArrowUpDown, Pencil, Trash2 } from 'lucide-react';
import { useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { cn } from '@/lib/cn';
import { type CellReference, RecordCell } from './EditableCell';
import type { RecordsSort } from './records.api';
import type { ReferenceLabels, ReferenceTarget } from './reference-labels';

// The Actions column stays in view while a wide table scrolls sideways.
const STICKY_ACTIONS = 'sticky right-0 bg-card shadow-[-1px_0_0_var(--color-border)]';

/**
 * WINDOW_FROM is the page length from which only the rows in view (and a few around them) are drawn: a page of
 * 1,000 records is some 40 table rows in the document, with spacer rows keeping the scroll height true.
 */
export const WINDOW_FROM = 200;
const ROW_HEIGHT = 41;

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

function ColumnHeading({
  name,
  type,
  sort,
  onSort,
}: {
  name: string;
  type: string;
  sort?: RecordsSort | null;
  onSort?: (column: string) => void;
}) {
  const label = (
    <>
      {name}
      <span className="ml-1.5 font-sans font-normal text-muted-foreground/70">{type}</span>
    </>
  );
  return (
    <TableHead className="font-mono" aria-sort={onSort ? ariaSort(sort, name) : undefined}>
      {onSort ? (
        <button
          type="button"
          className="inline-flex items-center whitespace-nowrap hover:text-foreground"
          onClick={() => onSort(name)}
        >
          {label}
          <SortIcon sort={sort} column={name} />
        </button>
      ) : (
        label
      )}
    </TableHead>
  );
}

/** GridSelection is which records of the page are checked, and how to check or uncheck some. */
export interface GridSelection {
  selected: ReadonlySet<number>;
  onSelect: (ids: number[], checked: boolean) => void;
}

/** GridReferences are the reference columns of the grid's table and the labels of the page's referenced rows. */
export interface GridReferences {
  targets: readonly ReferenceTarget[];
  labels: ReferenceLabels;
}

function cellReference(
  references: GridReferences | undefined,
  column: string,
  value: unknown,
): CellReference | undefined {
  const target = references?.targets.find((t) => t.column === column);
  if (!target) return undefined;
  return { target, label: typeof value === 'number' ? references?.labels.get(column)?.get(value) : undefined };
}

/**
 * RecordsGrid shows one page of records: a check box per row (with a selection), a column per schema field (id
 * first) and the row actions. With onSort the headers sort the table on the server (by that column, then by id);
 * with onSaveCell a double-clicked cell is edited in place. A long page draws only the rows in view
 * (@tanstack/react-virtual).
 */
export function RecordsGrid({
  schema,
  rows,
  sort,
  onSort,
  selection,
  onSaveCell,
  onEdit,
  onDelete,
  references,
  rowHref,
}: {
  schema: TableSchema;
  rows: readonly RecordRow[];
  sort?: RecordsSort | null;
  onSort?: (column: string) => void;
  selection?: GridSelection;
  /** Absent when the caller's project role may not change records (a table shared with it): no editing. */
  onSaveCell?: (record: RecordRow, column: string, value: unknown) => Promise<unknown>;
  onEdit?: (record: RecordRow) => void;
  onDelete?: (record: RecordRow) => void;
  /** Reference columns show their rows' labels and are edited with the picker. */
  references?: GridReferences;
  /** The address of a row's page, which its id links to. */
  rowHref?: (record: RecordRow) => string;
}) {
  const columns = Object.entries(schema);
  const scrollBox = useRef<HTMLDivElement>(null);
  const windowed = rows.length >= WINDOW_FROM;
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollBox.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 10,
    enabled: windowed,
    initialRect: { width: 0, height: 600 },
  });
  const [editing, setEditing] = useState<{ id: number; column: string } | null>(null);
  const items = windowed ? virtualizer.getVirtualItems() : null;
  const shown = items ? items.map((item) => ({ row: rows[item.index], index: item.index })) : null;
  const before = items?.[0]?.start ?? 0;
  const after = items && items.length > 0 ? virtualizer.getTotalSize() - (items.at(-1)?.end ?? 0) : 0;
  const pageIds = rows.map((row) => row.id);
  const checkedCount = selection ? pageIds.filter((id) => selection.selected.has(id)).length : 0;
  return (
    <div ref={scrollBox} className={cn(windowed && 'max-h-[70vh] overflow-y-auto')} data-testid="records-scroll">
      <Table aria-label="Records" aria-rowcount={rows.length + 1}>
        <TableHeader>
          <TableRow className="hover:bg-transparent">
            {selection && (
              <TableHead className="w-10">
                <Checkbox
                  aria-label="Select all records on this page"
                  checked={checkedCount === 0 ? false : checkedCount === rows.length ? true : 'indeterminate'}
                  onCheckedChange={(checked) => selection.onSelect(pageIds, checked === true)}
                />
              </TableHead>
            )}
            {columns.map(([name, definition]) => (
              <ColumnHeading key={name} name={name} type={definition.type} sort={sort} onSort={onSort} />
            ))}
            <TableHead className={cn('w-24 text-right', STICKY_ACTIONS)}>Actions</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {before > 0 && <tr aria-hidden style={{ height: before }} />}
          {(shown ?? rows.map((row, index) => ({ row, index }))).map(({ row, index }) =>
            row ? (
              <TableRow
                key={row.id}
                aria-rowindex={index + 2}
                aria-selected={selection ? selection.selected.has(row.id) : undefined}
                className="group"
              >
                {selection && (
                  <TableCell className="w-10">
                    <Checkbox
                      aria-label={`Select record ${row.id}`}
                      checked={selection.selected.has(row.id)}
                      onCheckedChange={(checked) => selection.onSelect([row.id], checked === true)}
                    />
                  </TableCell>
                )}
                {columns.map(([name, definition]) => (
                  <RecordCell
                    key={name}
                    name={name}
                    definition={definition}
                    value={row[name]}
                    editing={editing?.id === row.id && editing.column === name}
                    onEditingChange={(open) => setEditing(open ? { id: row.id, column: name } : null)}
                    onSave={onSaveCell && name !== 'id' ? (value) => onSaveCell(row, name, value) : undefined}
                    reference={cellReference(references, name, row[name])}
                    rowHref={name === 'id' ? rowHref?.(row) : undefined}
                  />
                ))}
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
            ) : null,
          )}
          {after > 0 && <tr aria-hidden style={{ height: after }} />}
        </TableBody>
      </Table>
    </div>
  );
}
