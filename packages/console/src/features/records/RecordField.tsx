import { type ColumnDefault, type ColumnDefinition, DEFAULT_NOW } from '@basalt/shared';
import type { ReactNode } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { Badge } from '@/components/ui/badge';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { NativeSelect } from '@/components/ui/native-select';
import { Textarea } from '@/components/ui/textarea';

const PLACEHOLDERS: Partial<Record<ColumnDefinition['type'], string>> = {
  text: 'Text',
  number: '0',
  json: '{"key": "value"}',
  array: '["first", "second"]',
};

// 'now' reads as what it is; other defaults as their text.
const defaultLabel = (value: ColumnDefault, type: ColumnDefinition['type']) => {
  if (value === DEFAULT_NOW && type === 'date_only') return 'the day of saving';
  if (value === DEFAULT_NOW && type === 'date') return 'the time of saving';
  return typeof value === 'string' ? value : JSON.stringify(value);
};

/** RecordField is one column's input in the record form, chosen by the column's type. */
export function RecordField({
  name,
  definition,
  registration,
  defaultValue,
  error,
  beside,
}: {
  name: string;
  definition: ColumnDefinition;
  registration: UseFormRegisterReturn;
  /** defaultValue is the starting text; passed to the element too, so a select starts on it everywhere. */
  defaultValue: string;
  error?: string;
  /** Shown beside the input: a reference column's Pick button. */
  beside?: ReactNode;
}) {
  const id = `record-field-${name}`;
  const common = {
    id,
    // The name alone, without the asterisk: `required` already tells assistive technology.
    'aria-label': name,
    required: definition.required,
    defaultValue,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': error ? `${id}-error` : undefined,
    ...registration,
  };
  let control: ReactNode;
  switch (definition.type) {
    case 'boolean':
      control = (
        <NativeSelect {...common}>
          <option value="">{definition.required ? 'Select…' : 'Not set'}</option>
          <option value="true">True</option>
          <option value="false">False</option>
        </NativeSelect>
      );
      break;
    case 'number':
      control = <Input {...common} type="number" step="any" inputMode="decimal" placeholder={PLACEHOLDERS.number} />;
      break;
    case 'date':
    case 'date_only':
      control = <Input {...common} type="date" />;
      break;
    case 'json':
    case 'array':
      control = (
        <Textarea
          {...common}
          rows={3}
          spellCheck={false}
          className="font-mono text-[13px]"
          placeholder={PLACEHOLDERS[definition.type]}
        />
      );
      break;
    default:
      control = <Input {...common} placeholder={PLACEHOLDERS.text} />;
  }
  return (
    <div className="grid gap-2">
      <div className="flex items-center justify-between gap-2">
        <Label htmlFor={id} className="font-mono text-[13px]">
          {name}
          {definition.required && (
            <span aria-hidden className="ml-0.5 text-destructive">
              *
            </span>
          )}
        </Label>
        <Badge variant="secondary">{definition.type}</Badge>
      </div>
      {beside ? (
        <div className="flex items-center gap-2">
          <div className="min-w-0 flex-1">{control}</div>
          {beside}
        </div>
      ) : (
        control
      )}
      {definition.default !== undefined && definition.default !== null && (
        <p className="text-xs text-muted-foreground">
          Left empty: <span className="font-mono">{defaultLabel(definition.default, definition.type)}</span>
        </p>
      )}
      {error && (
        <p id={`${id}-error`} role="alert" className="text-[13px] font-medium text-destructive">
          {error}
        </p>
      )}
    </div>
  );
}
