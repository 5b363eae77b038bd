import type { ApiKey } from '@basalt/shared';
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
import { useDeleteApiKeyMutation } from './keys.queries';

/** DeleteApiKeyDialog confirms deleting an API key. */
export function DeleteApiKeyDialog({ apiKey, onClose }: { apiKey: ApiKey | null; onClose: () => void }) {
  const deletion = useDeleteApiKeyMutation();
  return (
    <AlertDialog open={apiKey !== null} onOpenChange={(open) => !open && onClose()}>
      <AlertDialogContent>
        <AlertDialogTitle>Delete API key?</AlertDialogTitle>
        <AlertDialogDescription>
          This action cannot be undone. Apps using “{apiKey?.name}” will stop working at once.
        </AlertDialogDescription>
        <AlertDialogFooter>
          <AlertDialogCancel>Cancel</AlertDialogCancel>
          <AlertDialogAction
            className={buttonVariants({ variant: 'destructive' })}
            onClick={() => {
              if (apiKey) deletion.mutate(apiKey);
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
