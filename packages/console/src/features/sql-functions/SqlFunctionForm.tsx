import {
  CALL_RULES,
  COLUMN_TYPES,
  type SqlFunction,
  type SqlFunctionInput,
  sqlFunctionInputSchema,
} from '@basalt/shared';
import { PostgreSQL, sql } from '@codemirror/lang-sql';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { Controller, type FieldPath, useForm } from 'react-hook-form';
import { CodeField } from '@/components/code-field';
import { Badge } from '@/components/ui/badge';
import { EditorForm } from '@/components/ui/form-dialog';
import { FormField } from '@/components/ui/form-field';
import { InputField, SelectField } from '@/components/ui/input-field';
import { NativeSelect } from '@/components/ui/native-select';
import { useTablesQuery } from '@/features/tables/tables.queries';
import { ApiError } from '@/lib/api-errors';
import { type FormValues, TypedNames } from './SqlFunctionFields';
import { paramsForApi, paramsForForm, statementMode } from './sql-function-form-values';

// A SQL function's definition, validated with the server's own schema: name, who may call it, typed parameters
// (each with an optional default), what it returns (a scalar, one row or rows, of declared columns or of a table)
// and its one statement: a SELECT (reads), or an INSERT, UPDATE or DELETE with RETURNING (writes, shown as it is
// typed). The server's refusal of the statement (a table of another account…) lands under the statement.

// One language value for every editor: a new one would reconfigure the editor on each render.
const SQL = sql({ dialect: PostgreSQL });

const EXAMPLE = 'SELECT * FROM my_table WHERE id = :id';

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
  return { name, description, params: paramsForForm(params), returns, body, callRule };
}

const MODES = {
  read: { label: 'Reads', hint: 'Called with GET or POST.' },
  write: { label: 'Writes', hint: 'Called with POST only; each record it writes is in History like any write.' },
};

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
  const mode = MODES[statementMode(form.watch('body'))];

  return (
    <EditorForm
      onSubmit={form.handleSubmit((values) => onSubmit({ ...values, params: paramsForApi(values.params) }, refused))}
      onCancel={onCancel}
      submitLabel={submitLabel}
      pending={pending}
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <InputField
          id="sql-function-name"
          label="Name"
          error={errors.name?.message}
          className="font-mono text-[13px]"
          placeholder="books_by_author"
          {...form.register('name')}
        />
        <SelectField
          id="sql-function-rule"
          label="Who may call it"
          error={errors.callRule?.message}
          {...form.register('callRule')}
        >
          {CALL_RULES.map((rule) => (
            <option key={rule} value={rule}>
              {RULE_LABELS[rule]}
            </option>
          ))}
        </SelectField>
      </div>
      <TypedNames
        control={form.control}
        register={form.register}
        name="params"
        label="Parameters"
        withDefault
        errorOf={(i) => errors.params?.[i]?.default?.message}
      />
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
      <CodeField
        control={form.control}
        name="body"
        id="sql-function-body"
        label="Statement"
        ariaLabel="SQL statement"
        language={SQL}
        error={errors.body?.message}
        labelAction={<Badge variant={mode.label === 'Writes' ? 'warning' : 'secondary'}>{mode.label}</Badge>}
        hint={
          <p className="text-xs text-muted-foreground">
            One SELECT, or one INSERT, UPDATE or DELETE with RETURNING, over your tables. Write parameters as{' '}
            <code>:name</code>; <code>:auth_uid</code> is the calling user's id. {mode.hint}
          </p>
        }
        wrap
        className="h-40"
      />
    </EditorForm>
  );
}
