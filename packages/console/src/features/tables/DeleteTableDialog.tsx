import type { TableResponse } from '@basalt/shared';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { useDeleteTableMutation } from './tables.queries';

/**
 * DeleteTableDialog confirms dropping a table: Delete calls the server and closes
 * the dialog; Cancel or dismissal closes it without a call. `onDeleted` runs after the server agreed.
 */
export function DeleteTableDialog({
  table,
  onClose,
  onDeleted,
}: {
  table: TableResponse | null;
  onClose: () => void;
  onDeleted?: () => void;
}) {
  const deletion = useDeleteTableMutation();
  return (
    <ConfirmDialog
      open={table !== null}
      title="Are you sure?"
      description="This action cannot be undone. This will permanently delete the table and all its data."
      onConfirm={() => table && deletion.mutate(table, { onSuccess: () => onDeleted?.() })}
      onClose={onClose}
    />
  );
}
