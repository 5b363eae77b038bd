import type { ColumnType, HistoryChange, TableSchema } from '@basalt/shared';
import { ArrowRight, Minus, PencilLine, Plus, Table2 } from 'lucide-react';
import { cn } from '@/lib/cn';
import { diffChange, type FieldChange, formatValue, type SchemaLineKind } from './change-diff';

// A change's diff: per field the old value struck through and the new one, or the schema steps with a sign.

function Value({ value, type, tone }: { value: unknown; type?: ColumnType; tone: 'old' | 'new' }) {
  if (value === null || value === undefined || value === '') {
    return <span className="text-muted-foreground italic">empty</span>;
  }
  const text = formatValue(value, type);
  return (
    <span
      title={text.endsWith('…') ? JSON.stringify(value) : undefined}
      className={cn(
        'rounded px-1 font-mono text-[12px] break-all',
        tone === 'old' ? 'bg-destructive/10 text-destructive line-through' : 'bg-success/12 text-success',
      )}
    >
      {text}
    </span>
  );
}

function FieldRow({ change, type }: { change: FieldChange; type?: ColumnType }) {
  const hasBefore = 'before' in change;
  const hasAfter = 'after' in change;
  return (
    <li className="col-span-2 grid grid-cols-subgrid items-baseline text-sm">
      <span className="font-mono text-[12px] text-muted-foreground break-all">{change.field}</span>
      <span className="flex min-w-0 flex-wrap items-baseline gap-1.5">
        {hasBefore && <Value value={change.before} type={type} tone="old" />}
        {hasBefore && hasAfter && (
          <ArrowRight aria-label="changed to" className="size-3 shrink-0 text-muted-foreground" />
        )}
        {hasAfter && <Value value={change.after} type={type} tone="new" />}
      </span>
    </li>
  );
}

const SCHEMA_ICONS: Record<SchemaLineKind, { icon: typeof Plus; className: string; label: string }> = {
  add: { icon: Plus, className: 'text-success', label: 'Added' },
  drop: { icon: Minus, className: 'text-destructive', label: 'Dropped' },
  change: { icon: PencilLine, className: 'text-warning', label: 'Changed' },
  table: { icon: Table2, className: 'text-muted-foreground', label: 'Table' },
};

/**
 * ChangeDiffView shows what a change did: fields old → new, or the columns added, dropped, renamed, retyped.
 * `columns` is the table's schema, when known, so that values read as the records grid shows them.
 */
export function ChangeDiffView({
  change,
  columns,
  className,
}: {
  change: HistoryChange;
  columns?: TableSchema;
  className?: string;
}) {
  const { fields, schema } = diffChange(change);
  if (fields.length === 0 && schema.length === 0) {
    return <p className={cn('text-sm text-muted-foreground', className)}>No field changed.</p>;
  }
  if (schema.length > 0) {
    return (
      <ul aria-label="Schema changes" className={cn('grid gap-1', className)}>
        {schema.map((line) => {
          const { icon: Icon, className: tone, label } = SCHEMA_ICONS[line.kind];
          return (
            <li key={`${line.kind}-${line.text}`} className="flex items-start gap-2 text-sm">
              <Icon aria-label={label} className={cn('mt-0.5 size-3.5 shrink-0', tone)} />
              <span className="min-w-0 break-words">{line.text}</span>
            </li>
          );
        })}
      </ul>
    );
  }
  return (
    // One grid for all rows (each row a subgrid), so the values line up under the longest field name.
    <ul
      aria-label="Field changes"
      className={cn('grid grid-cols-[fit-content(12rem)_minmax(0,1fr)] gap-x-3 gap-y-1', className)}
    >
      {fields.map((field) => (
        <FieldRow key={field.field} change={field} type={columns?.[field.field]?.type} />
      ))}
    </ul>
  );
}
