import type { RecordRow, TableSchema } from '@basalt/shared';
import { Pencil, Trash2 } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { cn } from '@/lib/cn';
import { formatCellValue } from './record-values';

// The Actions column stays in view while a wide table scrolls sideways.
const STICKY_ACTIONS = 'sticky right-0 bg-card shadow-[-1px_0_0_var(--color-border)]';

/** RecordsGrid shows one page of records: a column per schema field (id first) and the row actions. */
export function RecordsGrid({
  schema,
  rows,
  onEdit,
  onDelete,
}: {
  schema: TableSchema;
  rows: readonly RecordRow[];
  /** Absent when the caller's project role may not change records (a table shared with it): no buttons. */
  onEdit?: (record: RecordRow) => void;
  onDelete?: (record: RecordRow) => void;
}) {
  const columns = Object.entries(schema);
  return (
    <Table aria-label="Records">
      <TableHeader>
        <TableRow className="hover:bg-transparent">
          {columns.map(([name, definition]) => (
            <TableHead key={name} className="font-mono">
              {name}
              <span className="ml-1.5 font-sans font-normal text-muted-foreground/70">{definition.type}</span>
            </TableHead>
          ))}
          <TableHead className={cn('w-24 text-right', STICKY_ACTIONS)}>Actions</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {rows.map((row) => (
          <TableRow key={row.id} className="group">
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
      </TableBody>
    </Table>
  );
}
