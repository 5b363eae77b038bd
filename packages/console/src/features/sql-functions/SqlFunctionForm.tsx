import {
  CALL_RULES,
  COLUMN_TYPES,
  type SqlFunction,
  type SqlFunctionInput,
  sqlFunctionInputSchema,
} from '@basalt/shared';
import { PostgreSQL, sql } from '@codemirror/lang-sql';
import { zodResolver } from '@hookform/resolvers/zod';
import { Plus, X } from 'lucide-react';
import { useState } from 'react';
import {
  type Control,
  Controller,
  type FieldPath,
  type UseFormRegister,
  useFieldArray,
  useForm,
} from 'react-hook-form';
import type { z } from 'zod';
import { CodeEditor } from '@/components/code-editor';
import { Button } from '@/components/ui/button';
import { DialogForm } from '@/components/ui/form-dialog';
import { FormField, fieldAria } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { useTablesQuery } from '@/features/tables/tables.queries';
import { ApiError } from '@/lib/api-errors';

// A SQL function's definition, validated with the server's own schema: name, who may call it, typed parameters,
// what it returns (a scalar, one row or rows, of declared columns or of a table) and its one SELECT. The server's
// refusal of the statement (a table of another account, a write…) lands under the statement.

// One language value for every editor: a new one would reconfigure the editor on each render.
const SQL = sql({ dialect: PostgreSQL });

const EXAMPLE = 'SELECT * FROM my_table WHERE id = :id';

/** FormValues are the form's fields before the schema's defaults apply. */
type FormValues = z.input<typeof sqlFunctionInputSchema>;

const RULE_LABELS: Record<(typeof CALL_RULES)[number], string> = {
  nobody: 'Only you and the service key',
  authenticated: 'Signed-in users of your app',
  public: 'Anyone with your app key',
};

function defaultsOf(fn: SqlFunction | null): FormValues {
  if (!fn) {
    return {
      name: '',
      description: null,
      params: [],
      returns: { kind: 'rows', columns: [] },
      body: EXAMPLE,
      callRule: 'nobody',
    };
  }
  const { name, description, params, returns, body, callRule } = fn;
  return { name, description, params, returns, body, callRule };
}

function TypedNames({
  control,
  register,
  name,
  label,
}: {
  control: Control<FormValues, unknown, SqlFunctionInput>;
  register: UseFormRegister<FormValues>;
  name: 'params' | 'returns.columns';
  label: string;
}) {
  const list = useFieldArray({ control, name: name as 'params' });
  return (
    <fieldset className="grid gap-2">
      <legend className="mb-1 text-sm font-medium">{label}</legend>
      {list.fields.map((field, i) => (
        <div key={field.id} className="flex items-center gap-2">
          <Input
            aria-label={`${label} ${i + 1} name`}
            placeholder="name"
            autoComplete="off"
            className="font-mono text-[13px]"
            {...register(`${name}.${i}.name` as FieldPath<FormValues> as 'params.0.name')}
          />
          <NativeSelect
            aria-label={`${label} ${i + 1} type`}
            containerClassName="w-36 shrink-0"
            {...register(`${name}.${i}.type` as FieldPath<FormValues> as 'params.0.type')}
          >
            {COLUMN_TYPES.map((type) => (
              <option key={type} value={type}>
                {type}
              </option>
            ))}
          </NativeSelect>
          <Button
            type="button"
            variant="ghost"
            size="icon"
            aria-label={`Remove ${label.toLowerCase()} ${i + 1}`}
            onClick={() => list.remove(i)}
          >
            <X />
          </Button>
        </div>
      ))}
      <Button
        type="button"
        variant="outline"
        size="sm"
        className="w-fit"
        onClick={() => list.append({ name: '', type: 'text' })}
      >
        <Plus />
        Add {label.toLowerCase().replace(/s$/, '')}
      </Button>
    </fieldset>
  );
}

/** SqlFunctionForm edits a function; `fn` null defines a new one. */
export function SqlFunctionForm({
  fn,
  pending,
  submitLabel,
  onSubmit,
  onCancel,
}: {
  fn: SqlFunction | null;
  pending: boolean;
  submitLabel: string;
  onSubmit: (values: SqlFunctionInput, refused: (error: unknown) => void) => void;
  onCancel: () => void;
}) {
  const form = useForm<FormValues, unknown, SqlFunctionInput>({
    resolver: zodResolver(sqlFunctionInputSchema),
    defaultValues: defaultsOf(fn),
  });
  const tables = useTablesQuery();
  const { errors } = form.formState;
  // The whole return shape is watched: shapeReturns replaces it at once.
  const returns = form.watch('returns');
  const kind = returns.kind;
  const [from, setFrom] = useState<'columns' | 'table'>(fn?.returns.table ? 'table' : 'columns');

  // The return shape keeps only the fields its kind uses (the schema refuses the others).
  const shapeReturns = (nextKind: string, nextFrom: 'columns' | 'table') => {
    const current = form.getValues('returns');
    if (nextKind === 'scalar') form.setValue('returns', { kind: 'scalar', type: current.type ?? 'number' });
    else if (nextFrom === 'table')
      form.setValue('returns', { kind: nextKind as 'row', table: current.table ?? tables.data?.[0]?.name ?? '' });
    else form.setValue('returns', { kind: nextKind as 'row', columns: current.columns ?? [] });
  };

  const refused = (error: unknown) => {
    const fields = error instanceof ApiError ? error.validationErrors : undefined;
    for (const [field, messages] of Object.entries(fields ?? {})) {
      const target = field.startsWith('returns') ? 'returns' : field;
      form.setError((target || 'body') as FieldPath<FormValues>, { message: messages[0] });
    }
  };
  const returnsError = errors.returns?.message ?? errors.returns?.root?.message ?? errors.returns?.table?.message;

  return (
    <DialogForm
      className="min-h-0"
      onSubmit={form.handleSubmit((values) => onSubmit(values, refused))}
      onCancel={onCancel}
      submitLabel={submitLabel}
      pendingLabel="Saving..."
      pending={pending}
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField id="sql-function-name" label="Name" error={errors.name?.message}>
          <Input
            {...fieldAria('sql-function-name', errors.name?.message)}
            className="font-mono text-[13px]"
            placeholder="books_by_author"
            autoComplete="off"
            {...form.register('name')}
          />
        </FormField>
        <FormField id="sql-function-rule" label="Who may call it" error={errors.callRule?.message}>
          <NativeSelect id="sql-function-rule" {...form.register('callRule')}>
            {CALL_RULES.map((rule) => (
              <option key={rule} value={rule}>
                {RULE_LABELS[rule]}
              </option>
            ))}
          </NativeSelect>
        </FormField>
      </div>
      <TypedNames control={form.control} register={form.register} name="params" label="Parameters" />
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField id="sql-function-returns" label="Returns" error={returnsError}>
          <NativeSelect
            id="sql-function-returns"
            value={kind}
            onChange={(event) => shapeReturns(event.target.value, from)}
          >
            <option value="scalar">A value</option>
            <option value="row">One row</option>
            <option value="rows">Rows</option>
          </NativeSelect>
        </FormField>
        {kind === 'scalar' ? (
          <FormField id="sql-function-type" label="Of type">
            <NativeSelect id="sql-function-type" {...form.register('returns.type')}>
              {COLUMN_TYPES.map((type) => (
                <option key={type} value={type}>
                  {type}
                </option>
              ))}
            </NativeSelect>
          </FormField>
        ) : (
          <FormField id="sql-function-from" label="Of">
            <NativeSelect
              id="sql-function-from"
              value={from === 'table' ? `table:${returns.table ?? ''}` : 'columns'}
              onChange={(event) => {
                const value = event.target.value;
                const next = value === 'columns' ? 'columns' : 'table';
                setFrom(next);
                shapeReturns(kind, next);
                if (next === 'table') form.setValue('returns.table', value.slice('table:'.length));
              }}
            >
              <option value="columns">Columns listed below</option>
              {(tables.data ?? []).map((table) => (
                <option key={table.id} value={`table:${table.name}`}>
                  Rows of {table.name}
                </option>
              ))}
            </NativeSelect>
          </FormField>
        )}
      </div>
      {kind !== 'scalar' && from === 'columns' && (
        <TypedNames control={form.control} register={form.register} name="returns.columns" label="Columns" />
      )}
      <FormField
        id="sql-function-body"
        label="Statement"
        error={errors.body?.message}
        hint={
          <p className="text-xs text-muted-foreground">
            One SELECT over your tables. Write parameters as <code>:name</code>; <code>:auth_uid</code> is the calling
            user's id.
          </p>
        }
      >
        <Controller
          control={form.control}
          name="body"
          render={({ field }) => (
            <CodeEditor
              id="sql-function-body"
              ariaLabel="SQL statement"
              language={SQL}
              value={field.value}
              onChange={field.onChange}
              invalid={Boolean(errors.body)}
              wrap
              className="h-40"
            />
          )}
        />
      </FormField>
    </DialogForm>
  );
}
