import type { ColumnType } from '@basalt/shared';
import { type UseFormReturn, useWatch } from 'react-hook-form';
import { Input } from '@/components/ui/input';
import type { TableDraft } from './table-draft';

// A column's default in the create-table form and the schema editor: typed as text and read by the column's
// type (table-draft.ts defaultFromText); the shared rule's message shows under it.

const PLACEHOLDERS: Record<ColumnType, string> = {
  text: 'No default',
  number: 'No default, e.g. 0',
  boolean: 'No default, true or false',
  date: 'No default, now or 2025-01-01T09:00:00Z',
  date_only: 'No default, now or 2025-01-01',
  json: 'No default, e.g. {"a": 1}',
  array: 'No default, e.g. []',
};

/** ColumnDefaultInput edits the default of column `index`: what a created record gets when it leaves it out. */
export function ColumnDefaultInput({ form, index }: { form: UseFormReturn<TableDraft>; index: number }) {
  const type = useWatch({ control: form.control, name: `columns.${index}.type` }) ?? 'text';
  const error = form.formState.errors.columns?.[index]?.defaultText?.message;
  const id = `column-${index}-default`;
  return (
    <div className="col-span-full grid gap-1 text-sm" data-testid="column-default">
      <div className="flex items-center gap-2">
        <label htmlFor={id} className="whitespace-nowrap text-muted-foreground">
          Default
        </label>
        <Input
          id={id}
          aria-label={`Column ${index + 1} default`}
          aria-invalid={error ? true : undefined}
          placeholder={PLACEHOLDERS[type]}
          autoComplete="off"
          spellCheck={false}
          className="h-8 min-w-0 font-mono text-[13px]"
          {...form.register(`columns.${index}.defaultText`)}
        />
      </div>
      {error && (
        <p role="alert" className="text-[13px] font-medium text-destructive">
          {error}
        </p>
      )}
    </div>
  );
}
