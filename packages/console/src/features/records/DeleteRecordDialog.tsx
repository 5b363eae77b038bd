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
      description={`Record ${record?.id} is deleted from ${table.name}. Database History keeps it: revert the deletion there to bring it back.`}
      onConfirm={() => record && deletion.mutate(record)}
      onClose={onClose}
    />
  );
}
