import type { ComponentProps, ReactNode } from 'react';
import { FormField, fieldAria } from './form-field';
import { Input } from './input';
import { NativeSelect } from './native-select';

// The two fields most forms are made of: a labelled input, or a labelled select, with its validation message,
// wired for screen readers (the props go to the control: spread a react-hook-form `register(...)` into them).

interface FieldProps {
  id: string;
  label: string;
  error?: string | undefined;
  hint?: ReactNode;
}

/** InputField is a labelled Input with its error. */
export function InputField({ id, label, error, hint, ...input }: FieldProps & ComponentProps<typeof Input>) {
  return (
    <FormField id={id} label={label} error={error} hint={hint}>
      <Input {...fieldAria(id, error)} autoComplete="off" {...input} />
    </FormField>
  );
}

/** SelectField is a labelled NativeSelect with its error; its options are the children. */
export function SelectField({ id, label, error, hint, ...select }: FieldProps & ComponentProps<typeof NativeSelect>) {
  return (
    <FormField id={id} label={label} error={error} hint={hint}>
      <NativeSelect {...fieldAria(id, error)} {...select} />
    </FormField>
  );
}
