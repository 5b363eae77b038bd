import type { RecordRow, TableResponse } from '@basalt/shared';
import { FormDialog } from '@/components/ui/form-dialog';
import { RecordForm } from './RecordForm';
import { buildCreatePayload, buildUpdatePayload } from './record-values';
import { useCreateRecordMutation, useUpdateRecordMutation } from './records.queries';
import { useReferenceTargets } from './reference-labels.queries';

/** RecordDialogState says which record form is open: a new record, a record to edit, or none. */
export type RecordDialogState = { mode: 'create' } | { mode: 'edit'; record: RecordRow } | null;

/** RecordFormDialog is the "Add Record to {table}" modal, and the same form to edit a record. */
export function RecordFormDialog({
  table,
  state,
  onClose,
}: {
  table: TableResponse;
  state: RecordDialogState;
  onClose: () => void;
}) {
  const creation = useCreateRecordMutation(table);
  const update = useUpdateRecordMutation(table);
  const editing = state?.mode === 'edit' ? state.record : null;
  const references = useReferenceTargets(table.schema);
  return (
    <FormDialog
      open={state !== null}
      onOpenChange={(open) => !open && onClose()}
      className="sm:max-w-xl"
      title={editing ? `Edit Record ${editing.id}` : `Add Record to ${table.name}`}
      description={
        editing
          ? `Change the values of record ${editing.id} in ${table.name}.`
          : 'Fill in the values of the new record. Fields marked * are required.'
      }
    >
      {state && (
        <RecordForm
          key={editing ? `edit-${editing.id}` : 'create'}
          schema={table.schema}
          record={editing ?? undefined}
          submitLabel={editing ? 'Save Changes' : 'Add Record'}
          pendingLabel={editing ? 'Saving...' : 'Adding...'}
          isPending={creation.isPending || update.isPending}
          onCancel={onClose}
          references={references}
          onSubmit={(values) => {
            if (editing) {
              update.mutate(
                { id: editing.id, payload: buildUpdatePayload(table.schema, values) },
                { onSuccess: onClose },
              );
            } else {
              creation.mutate(buildCreatePayload(table.schema, values), { onSuccess: onClose });
            }
          }}
        />
      )}
    </FormDialog>
  );
}
