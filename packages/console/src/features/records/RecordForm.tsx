import type { TableSchema } from '@basalt/shared';
import { useState } from 'react';
import { type FieldErrors, type Resolver, useForm } from 'react-hook-form';
import { DialogForm } from '@/components/ui/form-dialog';
import { RecordField } from './RecordField';
import { ReferenceFieldPicker } from './ReferenceFieldPicker';
import { editableColumns, initialFormValues, type RecordFormValues, validateRecordValues } from './record-values';
import type { ReferenceTarget } from './reference-labels';

/** recordResolver validates the form with validateRecordValues (the server's own messages). */
function recordResolver(schema: TableSchema): Resolver<RecordFormValues> {
  return async (values) => {
    const problems = validateRecordValues(schema, values);
    if (Object.keys(problems).length === 0) return { values, errors: {} };
    const errors: FieldErrors<RecordFormValues> = {};
    for (const [name, message] of Object.entries(problems)) errors[name] = { type: 'validate', message };
    return { values: {}, errors };
  };
}

// The form's view of the schema: on Add Record a column with a default may be left empty (the server fills it in,
// the field shows it as a placeholder); Edit Record never applies defaults.
function formSchemaOf(schema: TableSchema, creating: boolean): TableSchema {
  return Object.fromEntries(
    Object.entries(schema).map(([name, { default: value, ...definition }]) => {
      const defaulted = creating && value !== undefined && value !== null;
      return [name, defaulted ? { ...definition, required: false, default: value } : definition];
    }),
  );
}

/**
 * RecordForm is the Add Record / Edit Record form: one input per column but id, required columns marked
 * with an asterisk and checked by the browser, then by the same rules the server applies.
 */
export function RecordForm({
  schema,
  record,
  submitLabel,
  pendingLabel,
  isPending,
  onSubmit,
  onCancel,
  references = [],
}: {
  schema: TableSchema;
  record?: Record<string, unknown>;
  submitLabel: string;
  pendingLabel: string;
  isPending: boolean;
  onSubmit: (values: RecordFormValues) => void;
  onCancel: () => void;
  /** The table's reference columns: each gets a Pick button over the table it references. */
  references?: readonly ReferenceTarget[];
}) {
  const [defaults] = useState(() => initialFormValues(schema, record));
  const [formSchema] = useState(() => formSchemaOf(schema, record === undefined));
  const form = useForm<RecordFormValues>({ resolver: recordResolver(formSchema), defaultValues: defaults });
  const columns = editableColumns(formSchema);
  return (
    <DialogForm
      onSubmit={form.handleSubmit(onSubmit)}
      onCancel={onCancel}
      submitLabel={submitLabel}
      pendingLabel={pendingLabel}
      pending={isPending}
      browserValidation
    >
      {columns.length === 0 ? (
        <p className="text-sm text-muted-foreground">
          This table has only its id column. Add columns in the schema editor to store values in its records.
        </p>
      ) : (
        columns.map(([name, definition]) => {
          const target = references.find((t) => t.column === name && t.table);
          const current = Number(form.getValues(name));
          return (
            <RecordField
              key={name}
              name={name}
              definition={definition}
              registration={form.register(name)}
              defaultValue={defaults[name] ?? ''}
              error={form.formState.errors[name]?.message}
              beside={
                target && (
                  <ReferenceFieldPicker
                    name={name}
                    target={target}
                    value={Number.isInteger(current) && current > 0 ? current : null}
                    nullable={!definition.required}
                    onPick={(id) =>
                      form.setValue(name, id === null ? '' : String(id), { shouldDirty: true, shouldValidate: true })
                    }
                  />
                )
              }
            />
          );
        })
      )}
    </DialogForm>
  );
}
