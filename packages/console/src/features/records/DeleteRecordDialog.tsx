import type { RecordRow, TableResponse } from '@basalt/shared';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { useDeleteRecordMutation } from './records.queries';

/** DeleteRecordDialog confirms deleting one record. */
export function DeleteRecordDialog({
  table,
  record,
  onClose,
}: {
  table: TableResponse;
  record: RecordRow | null;
  onClose: () => void;
}) {
  const deletion = useDeleteRecordMutation(table);
  return (
    <ConfirmDialog
      open={record !== null}
      title={`Delete record ${record?.id}?`}
      description={`This action cannot be undone. Record ${record?.id} will be permanently deleted from ${table.name}.`}
      onConfirm={() => record && deletion.mutate(record)}
      onClose={onClose}
    />
  );
}
