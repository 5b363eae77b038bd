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
      description="The table and all its records are deleted. Database History keeps them: revert the deletion there to bring the table back."
      onConfirm={() => table && deletion.mutate(table, { onSuccess: () => onDeleted?.() })}
      onClose={onClose}
    />
  );
}
