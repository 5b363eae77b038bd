import type { CreateTableRequest } from '@basalt/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { DialogForm } from '@/components/ui/form-dialog';
import { FormField, fieldAria } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Textarea } from '@/components/ui/textarea';
import { ColumnsEditor, type TableColumns } from './ColumnsEditor';
import { emptyTableDraft, type TableDraft, tableDraftSchema, toCreateTableRequest } from './table-draft';

/** CreateTableForm is the create-table form: name, optional description and the columns. */
export function CreateTableForm({
  isPending,
  onSubmit,
  onCancel,
  tableNames,
  tableColumns,
}: {
  isPending: boolean;
  tableNames?: readonly string[];
  /** Their columns, for a reference's "Shown by". */
  tableColumns?: TableColumns;
  onSubmit: (request: CreateTableRequest) => void;
  onCancel: () => void;
}) {
  const form = useForm<TableDraft>({
    resolver: zodResolver(tableDraftSchema),
    mode: 'onSubmit',
    defaultValues: emptyTableDraft(),
  });
  const { errors } = form.formState;
  return (
    <DialogForm
      className="gap-5"
      onSubmit={form.handleSubmit((draft) => onSubmit(toCreateTableRequest(draft)))}
      onCancel={onCancel}
      submitLabel="Create Table"
      pendingLabel="Creating..."
      pending={isPending}
    >
      <FormField id="table-name" label="Table name" error={errors.name?.message}>
        <Input
          {...fieldAria('table-name', errors.name?.message)}
          placeholder="customers"
          autoComplete="off"
          spellCheck={false}
          className="font-mono text-[13px]"
          {...form.register('name')}
        />
      </FormField>
      <FormField id="table-description" label="Description (optional)" error={errors.description?.message}>
        <Textarea
          {...fieldAria('table-description', errors.description?.message)}
          rows={2}
          placeholder="What this table holds"
          {...form.register('description')}
        />
      </FormField>
      <ColumnsEditor form={form} {...(tableNames ? { tableNames } : {})} {...(tableColumns ? { tableColumns } : {})} />
    </DialogForm>
  );
}
