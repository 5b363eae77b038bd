import type { RecordRow, TableResponse } from '@basalt/shared';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog';
import { buttonVariants } from '@/components/ui/button';
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
    <AlertDialog open={record !== null} onOpenChange={(open) => !open && onClose()}>
      <AlertDialogContent>
        <AlertDialogTitle>Delete record {record?.id}?</AlertDialogTitle>
        <AlertDialogDescription>
          This action cannot be undone. Record {record?.id} will be permanently deleted from {table.name}.
        </AlertDialogDescription>
        <AlertDialogFooter>
          <AlertDialogCancel>Cancel</AlertDialogCancel>
          <AlertDialogAction
            className={buttonVariants({ variant: 'destructive' })}
            onClick={() => {
              if (record) deletion.mutate(record);
              onClose();
            }}
          >
            Delete
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
