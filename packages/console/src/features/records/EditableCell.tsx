import type { ColumnDefinition } from '@basalt/shared';
import { useState } from 'react';
import { Link } from 'react-router';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { TableCell } from '@/components/ui/table';
import { cn } from '@/lib/cn';
import { ReferencePicker } from './ReferencePicker';
import { buildUpdatePayload, formatCellValue, toFormValue, validateRecordValues } from './record-values';
import type { ReferenceTarget } from './reference-labels';

// One cell of the grid, edited in place: a double click (or Enter on the focused cell) opens an input for the
// column's type; Enter or leaving the input saves the value, Escape puts it back. The value is checked with the
// record form's own rules before it is sent; an emptied cell is saved as null.

const INPUT_TYPE: Partial<Record<ColumnDefinition['type'], string>> = {
  number: 'text',
  date: 'date',
  date_only: 'date',
};

function CellEditor({
  name,
  definition,
  value,
  onSave,
  onCancel,
}: {
  name: string;
  definition: ColumnDefinition;
  value: unknown;
  onSave: (next: unknown) => Promise<unknown>;
  onCancel: () => void;
}) {
  const initial = toFormValue(definition.type, value);
  const [text, setText] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const save = async (next: string) => {
    if (saving) return;
    if (next === initial) return onCancel();
    const problem = validateRecordValues({ [name]: definition }, { [name]: next })[name];
    if (problem) return setError(problem);
    setSaving(true);
    try {
      await onSave(buildUpdatePayload({ [name]: definition }, { [name]: next })[name]);
    } catch {
      // The mutation's toast says why; the input stays open with what was typed.
      setSaving(false);
    }
  };
  const common = {
    'aria-label': `Edit ${name}`,
    'aria-invalid': error ? true : undefined,
    autoFocus: true,
    disabled: saving,
    className: 'h-8 min-w-32 font-normal',
  } as const;
  return (
    <div className="grid gap-1">
      {definition.type === 'boolean' ? (
        <NativeSelect
          {...common}
          value={text}
          onChange={(event) => {
            setText(event.target.value);
            void save(event.target.value);
          }}
          onKeyDown={(event) => event.key === 'Escape' && onCancel()}
          onBlur={onCancel}
        >
          <option value="">(empty)</option>
          <option value="true">True</option>
          <option value="false">False</option>
        </NativeSelect>
      ) : (
        <Input
          {...common}
          type={INPUT_TYPE[definition.type] ?? 'text'}
          inputMode={definition.type === 'number' ? 'decimal' : undefined}
          value={text}
          onChange={(event) => {
            setText(event.target.value);
            setError(null);
          }}
          onKeyDown={(event) => {
            if (event.key === 'Enter') void save(text);
            if (event.key === 'Escape') onCancel();
          }}
          onBlur={() => void save(text)}
        />
      )}
      {error && (
        <span role="alert" className="text-xs font-normal text-destructive">
          {error}
        </span>
      )}
    </div>
  );
}

/** CellReference is a reference cell's target and the label of the row it holds (undefined: not known). */
export interface CellReference {
  target: ReferenceTarget;
  label: string | undefined;
}

// A referenced row reads as its label, then its id.
function ReferenceValue({ value, label }: { value: unknown; label: string | undefined }) {
  if (typeof value !== 'number') return null;
  return (
    <span className="inline-flex max-w-full items-baseline gap-1.5">
      {label !== undefined && label !== '' && <span className="truncate">{label}</span>}
      <span className="font-mono text-xs text-muted-foreground">#{value}</span>
    </span>
  );
}

/** RecordCell shows one value of a record; with onSave it edits in place when double-clicked. */
export function RecordCell({
  name,
  definition,
  value,
  editing,
  onEditingChange,
  onSave,
  reference,
  rowHref,
}: {
  name: string;
  definition: ColumnDefinition;
  value: unknown;
  editing: boolean;
  onEditingChange: (editing: boolean) => void;
  /** Absent for cells that are not edited in place (id, or a role that may not write). */
  onSave?: (next: unknown) => Promise<unknown>;
  /** A reference column's target: the cell shows the label and edits with the picker. */
  reference?: CellReference;
  /** The row's page, which the id cell links to. */
  rowHref?: string;
}) {
  const text = reference
    ? [reference.label, typeof value === 'number' ? `#${value}` : ''].filter(Boolean).join(' ')
    : formatCellValue(value, definition.type);
  const shown = reference ? <ReferenceValue value={value} label={reference.label} /> : text;
  const table = reference?.target.table;
  const structured = definition.type === 'json' || definition.type === 'array';
  const className = cn(
    'max-w-64 truncate',
    (structured || name === 'id') && 'font-mono text-[13px]',
    name === 'id' && 'text-muted-foreground',
  );
  if (!onSave) {
    return (
      <TableCell title={text.length > 40 ? text : undefined} className={className}>
        {rowHref ? (
          <Link to={rowHref} className="hover:text-foreground hover:underline" aria-label={`Open record ${text}`}>
            {shown}
          </Link>
        ) : (
          shown
        )}
      </TableCell>
    );
  }
  if (editing && table) {
    return (
      <TableCell className="max-w-none py-1 align-top">
        <ReferencePicker
          column={name}
          table={table}
          labelColumn={reference?.target.labelColumn ?? null}
          value={typeof value === 'number' ? value : null}
          nullable={!definition.required}
          onCancel={() => onEditingChange(false)}
          onPick={(id) => {
            if (id === value) return onEditingChange(false);
            // A refused save keeps the picker open; the mutation's toast says why.
            void onSave(id).then(
              () => onEditingChange(false),
              () => {},
            );
          }}
        >
          <div className="flex h-8 items-center rounded-md border border-ring px-2 text-sm">{shown}</div>
        </ReferencePicker>
      </TableCell>
    );
  }
  if (editing) {
    return (
      <TableCell className="max-w-none py-1 align-top">
        <CellEditor
          name={name}
          definition={definition}
          value={value}
          onCancel={() => onEditingChange(false)}
          onSave={async (next) => {
            await onSave(next);
            onEditingChange(false);
          }}
        />
      </TableCell>
    );
  }
  return (
    <TableCell
      tabIndex={0}
      title={text.length > 40 ? text : 'Double-click to edit'}
      className={cn(className, 'cursor-text focus-visible:outline-2 focus-visible:outline-ring')}
      onDoubleClick={() => onEditingChange(true)}
      onKeyDown={(event) => {
        if (event.key === 'Enter' || event.key === 'F2') {
          event.preventDefault();
          onEditingChange(true);
        }
      }}
    >
      {shown}
    </TableCell>
  );
}
