import type { Extension } from '@codemirror/state';
import type { ReactNode } from 'react';
import { type Control, Controller, type FieldPath, type FieldValues } from 'react-hook-form';
import { CodeEditor } from './code-editor';
import { FormField } from './ui/form-field';

/**
 * CodeField is a labelled CodeEditor bound to one field of a react-hook-form form, with its validation message: the
 * code of an edge function, the statement of a SQL function.
 */
export function CodeField<T extends FieldValues>({
  control,
  name,
  id,
  label,
  ariaLabel,
  language,
  error,
  hint,
  labelAction,
  wrap,
  className,
}: {
  control: Control<T, unknown, unknown>;
  name: FieldPath<T>;
  id: string;
  label: string;
  ariaLabel: string;
  language: Extension;
  error?: string | undefined;
  hint?: ReactNode;
  labelAction?: ReactNode;
  wrap?: boolean;
  className?: string;
}) {
  return (
    <FormField id={id} label={label} error={error} hint={hint} labelAction={labelAction}>
      <Controller
        control={control}
        name={name}
        render={({ field }) => (
          <CodeEditor
            id={id}
            ariaLabel={ariaLabel}
            language={language}
            value={field.value}
            onChange={field.onChange}
            invalid={Boolean(error)}
            wrap={wrap}
            className={className}
          />
        )}
      />
    </FormField>
  );
}
