import { Link2, Lock, Plus, Trash2 } from 'lucide-react';
import { Controller, type UseFormReturn, useFieldArray, useWatch } from 'react-hook-form';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { cn } from '@/lib/cn';
import { ColumnDefaultInput } from './ColumnDefaultInput';
import { canIndex, newColumnDraft, type TableDraft } from './table-draft';
import { useTablesQuery } from './tables.queries';

const ON_DELETE_LABELS = { restrict: 'Restrict', cascade: 'Cascade', 'set null': 'Set null' } as const;

/**
 * ReferenceChoice picks the table a number column references (its rows' ids) and what deleting one of them does.
 * The table being edited is offered too: a reference to it makes a tree.
 */
function ReferenceChoice({
  form,
  index,
  tableNames,
  tableColumns,
}: {
  form: UseFormReturn<TableDraft>;
  index: number;
  tableNames: readonly string[];
  tableColumns: TableColumns;
}) {
  const selfName = useWatch({ control: form.control, name: 'name' });
  const target = useWatch({ control: form.control, name: `columns.${index}.referencesTable` });
  const names = [...new Set([...tableNames, ...(selfName ? [selfName] : []), ...(target ? [target] : [])])].sort();
  const labelChoices = useLabelChoices(form, index, target, tableColumns);
  return (
    <div className="col-span-full flex flex-wrap items-center gap-x-3 gap-y-2 text-sm" data-testid="column-reference">
      <div className="flex items-center gap-2 whitespace-nowrap text-muted-foreground">
        <Link2 className="size-4" aria-hidden />
        <label htmlFor={`column-${index}-references`}>References</label>
        <NativeSelect
          id={`column-${index}-references`}
          aria-label={`Column ${index + 1} references`}
          defaultValue={target}
          {...form.register(`columns.${index}.referencesTable`)}
        >
          <option value="">No table</option>
          {names.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </NativeSelect>
      </div>
      {target && (
        <div className="flex items-center gap-2 whitespace-nowrap text-muted-foreground">
          <label htmlFor={`column-${index}-on-delete`}>On delete</label>
          <NativeSelect
            id={`column-${index}-on-delete`}
            aria-label={`Column ${index + 1} on delete`}
            {...form.register(`columns.${index}.onDelete`)}
          >
            {Object.entries(ON_DELETE_LABELS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </NativeSelect>
        </div>
      )}
      {target && (
        <div className="flex items-center gap-2 whitespace-nowrap text-muted-foreground">
          <label htmlFor={`column-${index}-label`}>Shown by</label>
          <NativeSelect
            id={`column-${index}-label`}
            aria-label={`Column ${index + 1} shown by`}
            {...form.register(`columns.${index}.referencesLabel`)}
          >
            <option value="">First text column</option>
            {labelChoices.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </NativeSelect>
        </div>
      )}
    </div>
  );
}

// The columns a reference may be shown by: the referenced table's (the form's own for a tree), and the label
// already chosen, kept even when that table no longer has it.
function useLabelChoices(
  form: UseFormReturn<TableDraft>,
  index: number,
  target: string,
  tableColumns: TableColumns,
): string[] {
  const selfName = useWatch({ control: form.control, name: 'name' });
  const columns = useWatch({ control: form.control, name: 'columns' });
  const chosen = columns?.[index]?.referencesLabel;
  const own = target.toLowerCase() === (selfName ?? '').toLowerCase();
  const names = own
    ? (columns ?? []).map((c) => c.name).filter(Boolean)
    : ['id', ...(tableColumns[target.toLowerCase()] ?? [])];
  return [...new Set([...names, ...(chosen ? [chosen] : [])])];
}

/** COLUMN_TYPE_LABELS name the column types in the type pickers (`date` holds a date and time). */
export const COLUMN_TYPE_LABELS = {
  text: 'Text',
  number: 'Number',
  boolean: 'Boolean',
  date: 'Date & time',
  date_only: 'Date only',
  json: 'JSON',
  array: 'Array',
} as const;

const FLAG_LABELS = { required: 'Required', unique: 'Unique', indexed: 'Indexed', search: 'Searchable' } as const;

function FlagCheckbox({
  form,
  index,
  flag,
  disabled,
}: {
  form: UseFormReturn<TableDraft>;
  index: number;
  flag: keyof typeof FLAG_LABELS;
  disabled: boolean;
}) {
  const id = `column-${index}-${flag}`;
  return (
    <Controller
      control={form.control}
      name={`columns.${index}.${flag}`}
      render={({ field }) => (
        <label htmlFor={id} className="flex items-center gap-2 text-sm whitespace-nowrap select-none">
          <Checkbox
            id={id}
            checked={field.value === true}
            onCheckedChange={(checked) => field.onChange(checked === true)}
            onBlur={field.onBlur}
            disabled={disabled}
            aria-label={`Column ${index + 1} ${FLAG_LABELS[flag]}`}
          />
          {FLAG_LABELS[flag]}
        </label>
      )}
    />
  );
}

function ColumnRow({
  form,
  index,
  onRemove,
  tableNames,
  tableColumns,
}: {
  form: UseFormReturn<TableDraft>;
  index: number;
  onRemove: (() => void) | null;
  tableNames: readonly string[];
  tableColumns: TableColumns;
}) {
  const column = useWatch({ control: form.control, name: `columns.${index}` });
  const error = form.formState.errors.columns?.[index]?.name?.message;
  const locked = column?.system === true;
  const renamedFrom =
    column && !locked && column.originalName !== null && column.originalName !== column.name
      ? column.originalName
      : null;
  return (
    <li
      className={cn(
        // Narrow (a phone, or beside the preview): name and type on one line, the flags under them. Wide: one row.
        'grid grid-cols-[minmax(0,1fr)_7.5rem] gap-x-2 gap-y-3 rounded-lg border p-3 @xl:grid-cols-[minmax(0,1fr)_8.5rem_6rem_5.25rem_5.5rem_2rem] @xl:items-center @xl:gap-x-3 @xl:border-0 @xl:p-0',
        locked && 'opacity-80',
      )}
      data-testid="column-row"
    >
      <div className="grid gap-1">
        <div className="relative">
          {/* The system row shows its values without registering them: it is never edited. */}
          <Input
            aria-label={`Column ${index + 1} name`}
            aria-invalid={error ? true : undefined}
            placeholder="column_name"
            autoComplete="off"
            spellCheck={false}
            className={cn('font-mono text-[13px]', locked && 'pr-20')}
            {...(locked
              ? { value: column.name, disabled: true, readOnly: true }
              : form.register(`columns.${index}.name`))}
          />
          {locked && (
            <Badge variant="secondary" className="absolute top-1/2 right-2 -translate-y-1/2">
              <Lock />
              System
            </Badge>
          )}
        </div>
        {renamedFrom && <p className="text-xs text-muted-foreground">Renamed from “{renamedFrom}”</p>}
        {error && (
          <p role="alert" className="text-[13px] font-medium text-destructive">
            {error}
          </p>
        )}
      </div>
      <NativeSelect
        aria-label={`Column ${index + 1} type`}
        containerClassName="self-start"
        {...(locked
          ? { value: column.type, disabled: true, onChange: () => {} }
          : // defaultValue as well: the element starts on the column's type before the form sets it.
            { defaultValue: column?.type, ...form.register(`columns.${index}.type`) })}
      >
        {Object.entries(COLUMN_TYPE_LABELS).map(([value, label]) => (
          <option key={value} value={value}>
            {label}
          </option>
        ))}
      </NativeSelect>
      <div className="col-span-2 flex items-center gap-3 @sm:gap-5 @xl:contents">
        <FlagCheckbox form={form} index={index} flag="required" disabled={locked} />
        <FlagCheckbox form={form} index={index} flag="unique" disabled={locked} />
        {/* json and array columns take no index; their choice is dropped from the schema. */}
        <FlagCheckbox form={form} index={index} flag="indexed" disabled={locked || !canIndex(column?.type ?? 'text')} />
        {onRemove ? (
          <Button
            variant="ghost"
            size="icon-sm"
            aria-label={`Remove column ${index + 1}`}
            className="ml-auto @xl:ml-0"
            onClick={onRemove}
          >
            <Trash2 />
          </Button>
        ) : (
          <span className="hidden size-8 @xl:block" />
        )}
      </div>
      {!locked && <ColumnDefaultInput form={form} index={index} />}
      {!locked && column?.type === 'text' && (
        <div className="col-span-full flex flex-wrap items-center gap-x-3 gap-y-1" data-testid="column-search">
          <FlagCheckbox form={form} index={index} flag="search" disabled={false} />
          <span className="text-xs text-muted-foreground">A full-text index for the fts filters</span>
        </div>
      )}
      {!locked && column?.type === 'number' && (
        <ReferenceChoice form={form} index={index} tableNames={tableNames} tableColumns={tableColumns} />
      )}
    </li>
  );
}

/** useTableNames lists the account's table names for the reference choice (none while they load). */
export function useTableNames(): string[] {
  return (useTablesQuery().data ?? []).map((t) => t.name);
}

/** TableColumns maps each table's name (lower-cased) to its column names: what a reference may be shown by. */
export type TableColumns = Readonly<Record<string, readonly string[]>>;

/** useTableColumns lists the account's tables' columns for the reference's "Shown by" (none while they load). */
export function useTableColumns(): TableColumns {
  const tables = useTablesQuery().data ?? [];
  return Object.fromEntries(tables.map((t) => [t.name.toLowerCase(), Object.keys(t.schema).filter((c) => c !== 'id')]));
}

/**
 * ColumnsEditor edits a draft's columns: name, type, Required, Unique, Indexed and Default per row (References, On
 * delete and Shown by on number columns, Searchable on text columns), Add Column, and a remove button on every row
 * but the first (the id column, which every table has and no one removes).
 */
export function ColumnsEditor({
  form,
  tableNames = [],
  tableColumns = {},
}: {
  form: UseFormReturn<TableDraft>;
  /** The account's tables, which a number column may reference. */
  tableNames?: readonly string[];
  /** Their columns, which a reference may be shown by. */
  tableColumns?: TableColumns;
}) {
  const columns = useFieldArray({ control: form.control, name: 'columns' });
  const rootError = form.formState.errors.columns?.root?.message ?? form.formState.errors.columns?.message;
  return (
    <fieldset className="grid min-w-0 gap-3">
      <legend className="mb-3 text-sm font-medium">Columns</legend>
      {/* The row layout follows the width of the form (a dialog, or a card beside the preview), not the screen. */}
      <div className="@container grid gap-3">
        <div
          aria-hidden
          className="hidden text-xs font-medium text-muted-foreground @xl:grid @xl:grid-cols-[minmax(0,1fr)_8.5rem_6rem_5.25rem_5.5rem_2rem] @xl:gap-x-3"
        >
          <span>Name</span>
          <span>Type</span>
          <span className="invisible">Required</span>
          <span className="invisible">Unique</span>
          <span className="invisible">Indexed</span>
          <span />
        </div>
        <ul className="grid gap-3">
          {columns.fields.map((field, index) => (
            <ColumnRow
              key={field.id}
              form={form}
              index={index}
              onRemove={index === 0 || field.system ? null : () => columns.remove(index)}
              tableNames={tableNames}
              tableColumns={tableColumns}
            />
          ))}
        </ul>
      </div>
      {rootError && (
        <p role="alert" className="text-[13px] font-medium text-destructive">
          {rootError}
        </p>
      )}
      <div>
        <Button variant="outline" size="sm" onClick={() => columns.append(newColumnDraft())}>
          <Plus />
          Add Column
        </Button>
      </div>
    </fieldset>
  );
}
