import type { ColumnDefinition } from '@basalt/shared';
import { useState } from 'react';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { TableCell } from '@/components/ui/table';
import { cn } from '@/lib/cn';
import { buildUpdatePayload, formatCellValue, toFormValue, validateRecordValues } from './record-values';

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

/** RecordCell shows one value of a record; with onSave it edits in place when double-clicked. */
export function RecordCell({
  name,
  definition,
  value,
  editing,
  onEditingChange,
  onSave,
}: {
  name: string;
  definition: ColumnDefinition;
  value: unknown;
  editing: boolean;
  onEditingChange: (editing: boolean) => void;
  /** Absent for cells that are not edited in place (id, or a role that may not write). */
  onSave?: (next: unknown) => Promise<unknown>;
}) {
  const text = formatCellValue(value, definition.type);
  const structured = definition.type === 'json' || definition.type === 'array';
  const className = cn(
    'max-w-64 truncate',
    (structured || name === 'id') && 'font-mono text-[13px]',
    name === 'id' && 'text-muted-foreground',
  );
  if (!onSave) {
    return (
      <TableCell title={text.length > 40 ? text : undefined} className={className}>
        {text}
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
      {text}
    </TableCell>
  );
}
