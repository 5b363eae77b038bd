import type { ApiKey } from '@basalt/shared';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { useDeleteApiKeyMutation } from './keys.queries';

/** DeleteApiKeyDialog confirms deleting an API key. */
export function DeleteApiKeyDialog({ apiKey, onClose }: { apiKey: ApiKey | null; onClose: () => void }) {
  const deletion = useDeleteApiKeyMutation();
  return (
    <ConfirmDialog
      open={apiKey !== null}
      title="Delete API key?"
      description={`This action cannot be undone. Apps using “${apiKey?.name}” will stop working at once.`}
      onConfirm={() => apiKey && deletion.mutate(apiKey)}
      onClose={onClose}
    />
  );
}
