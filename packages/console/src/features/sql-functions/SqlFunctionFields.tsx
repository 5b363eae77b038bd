import { COLUMN_TYPES, type SqlFunctionInput, type sqlFunctionInputSchema } from '@basalt/shared';
import { Plus, X } from 'lucide-react';
import { type Control, type FieldPath, type UseFormRegister, useFieldArray } from 'react-hook-form';
import type { z } from 'zod';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';

// The lists of the SQL function form: its parameters (name, type, default) and a result's columns (name, type).

/** FormValues are the SQL function form's fields before the schema's defaults apply. */
export type FormValues = z.input<typeof sqlFunctionInputSchema>;

/** TypedNames edits a list of typed names; `withDefault` adds each one's default (parameters). */
export function TypedNames({
  control,
  register,
  name,
  label,
  withDefault = false,
  errorOf,
}: {
  control: Control<FormValues, unknown, SqlFunctionInput>;
  register: UseFormRegister<FormValues>;
  name: 'params' | 'returns.columns';
  label: string;
  withDefault?: boolean;
  /** The message of one item's field, if any (a default the server refused). */
  errorOf?: (index: number) => string | undefined;
}) {
  const list = useFieldArray({ control, name: name as 'params' });
  const path = (i: number, field: 'name' | 'type' | 'default') =>
    `${name}.${i}.${field}` as FieldPath<FormValues> as 'params.0.name';
  return (
    <fieldset className="grid gap-2">
      <legend className="mb-1 text-sm font-medium">{label}</legend>
      {list.fields.map((field, i) => (
        <div key={field.id} className="grid gap-1">
          <div className="flex flex-wrap items-center gap-2 sm:flex-nowrap">
            <Input
              aria-label={`${label} ${i + 1} name`}
              placeholder="name"
              autoComplete="off"
              className="min-w-32 flex-1 font-mono text-[13px]"
              {...register(path(i, 'name'))}
            />
            <NativeSelect
              aria-label={`${label} ${i + 1} type`}
              containerClassName="w-32 shrink-0"
              {...register(path(i, 'type') as 'params.0.type')}
            >
              {COLUMN_TYPES.map((type) => (
                <option key={type} value={type}>
                  {type}
                </option>
              ))}
            </NativeSelect>
            {withDefault && (
              <Input
                aria-label={`${label} ${i + 1} default`}
                aria-invalid={errorOf?.(i) ? true : undefined}
                placeholder="default (optional)"
                autoComplete="off"
                className="min-w-32 flex-1 font-mono text-[13px]"
                {...register(path(i, 'default') as 'params.0.default')}
              />
            )}
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
          {errorOf?.(i) && (
            <p role="alert" className="text-[13px] font-medium text-destructive">
              {errorOf(i)}
            </p>
          )}
        </div>
      ))}
      <Button
        type="button"
        variant="outline"
        size="sm"
        className="w-fit"
        onClick={() => list.append(withDefault ? { name: '', type: 'text', default: '' } : { name: '', type: 'text' })}
      >
        <Plus />
        Add {label.toLowerCase().replace(/s$/, '')}
      </Button>
    </fieldset>
  );
}
