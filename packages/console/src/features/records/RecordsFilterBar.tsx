import type { TableSchema } from '@basalt/shared';
import { X } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import {
  describeFilter,
  type FilterOperator,
  OPERATOR_LABELS,
  operatorsFor,
  type RecordFilter,
  takesValue,
} from './records-filters';

const INPUT_TYPE = { number: 'number', date: 'date', date_only: 'date' } as const;

/** NewFilterForm picks a column, an operator and a value; Add appends the filter. */
export function NewFilterForm({
  schema,
  onAdd,
  onCancel,
}: {
  schema: TableSchema;
  onAdd: (filter: RecordFilter) => void;
  onCancel: () => void;
}) {
  const columns = Object.entries(schema);
  const [column, setColumn] = useState(columns[0]?.[0] ?? 'id');
  const type = schema[column]?.type ?? 'text';
  const operators = operatorsFor(type);
  const [chosen, setChosen] = useState<FilterOperator | null>(null);
  const op = chosen && operators.includes(chosen) ? chosen : (operators[0] ?? 'eq');
  const [value, setValue] = useState('');
  const needsValue = takesValue(op);
  return (
    <form
      aria-label="New filter"
      className="grid gap-2 sm:flex sm:flex-wrap sm:items-center"
      onSubmit={(event) => {
        event.preventDefault();
        if (needsValue && value.trim() === '') return;
        onAdd({ column, op, value: needsValue ? value.trim() : '' });
      }}
    >
      <NativeSelect
        aria-label="Filter column"
        containerClassName="sm:w-40"
        value={column}
        onChange={(event) => setColumn(event.target.value)}
      >
        {columns.map(([name]) => (
          <option key={name}>{name}</option>
        ))}
      </NativeSelect>
      <NativeSelect
        aria-label="Filter operator"
        containerClassName="sm:w-36"
        value={op}
        onChange={(event) => setChosen(operators.find((o) => o === event.target.value) ?? null)}
      >
        {operators.map((operator) => (
          <option key={operator} value={operator}>
            {OPERATOR_LABELS[operator]}
          </option>
        ))}
      </NativeSelect>
      {needsValue && (
        <Input
          aria-label="Filter value"
          className="sm:w-48"
          type={type === 'number' || type === 'date' || type === 'date_only' ? INPUT_TYPE[type] : 'text'}
          value={value}
          onChange={(event) => setValue(event.target.value)}
        />
      )}
      <div className="flex gap-2">
        <Button type="submit" size="sm" disabled={needsValue && value.trim() === ''}>
          Apply filter
        </Button>
        <Button type="button" size="sm" variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

/** ActiveFilters lists the grid's filters, each with a button that removes it, and Clear filters. */
export function ActiveFilters({
  filters,
  onChange,
}: {
  filters: readonly RecordFilter[];
  onChange: (filters: RecordFilter[]) => void;
}) {
  if (filters.length === 0) return null;
  return (
    <ul aria-label="Filters" className="flex flex-wrap items-center gap-2">
      {filters.map((filter, index) => {
        const text = describeFilter(filter);
        return (
          <li
            // biome-ignore lint/suspicious/noArrayIndexKey: two filters may read the same; their place tells them apart.
            key={`${index}:${text}`}
            className="flex max-w-full items-center gap-1 rounded-full border bg-muted/50 py-0.5 pr-1 pl-3 text-xs"
          >
            <span className="truncate font-mono">{text}</span>
            <Button
              variant="ghost"
              size="icon-sm"
              className="size-6 rounded-full"
              aria-label={`Remove filter ${text}`}
              onClick={() => onChange(filters.filter((_, at) => at !== index))}
            >
              <X />
            </Button>
          </li>
        );
      })}
      <li>
        <Button variant="link" size="sm" className="h-auto px-1 text-xs" onClick={() => onChange([])}>
          Clear filters
        </Button>
      </li>
    </ul>
  );
}
