import type { TableResponse } from '@basalt/shared';
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
import { useDeleteTableMutation } from './tables.queries';

/**
 * DeleteTableDialog confirms dropping a table (spec console-core §2, §4): Delete calls the server and closes
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
    <AlertDialog open={table !== null} onOpenChange={(open) => !open && onClose()}>
      <AlertDialogContent>
        <AlertDialogTitle>Are you sure?</AlertDialogTitle>
        <AlertDialogDescription>
          This action cannot be undone. This will permanently delete the table and all its data.
        </AlertDialogDescription>
        <AlertDialogFooter>
          <AlertDialogCancel>Cancel</AlertDialogCancel>
          <AlertDialogAction
            className={buttonVariants({ variant: 'destructive' })}
            onClick={() => {
              if (table) deletion.mutate(table, { onSuccess: () => onDeleted?.() });
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
