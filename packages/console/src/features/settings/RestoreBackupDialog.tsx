import type { Backup } from '@basalt/shared';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { useBackupsQuery, useRestoreBackupMutation } from './backups.queries';

// Restoring replaces everything the instance holds: the person types RESTORE first, then follows the restore's
// steps here until it ends.

const CONFIRMATION = 'RESTORE';

function RestoreProgress({ backupId, onClose }: { backupId: string; onClose: () => void }) {
  const backups = useBackupsQuery();
  const backup = backups.data?.find((b) => b.id === backupId);
  const restore = backup?.restore;
  const running = !restore || restore.status === 'IN_PROGRESS';
  return (
    <div className="grid gap-4" aria-live="polite">
      {running && (
        <div className="flex items-center gap-3 text-sm">
          <Spinner />
          <span>Restoring: {restore?.step ?? 'starting'}…</span>
        </div>
      )}
      {restore?.status === 'COMPLETED' && (
        <p className="text-sm">
          The instance now holds the backup's data. Accounts and sessions were restored too: you may need to sign in
          again.
        </p>
      )}
      {restore?.status === 'FAILED' && (
        <p role="alert" className="text-sm text-destructive">
          The restore failed and nothing was changed: {restore.error}
        </p>
      )}
      <DialogFooter>
        <Button disabled={running} onClick={onClose}>
          Close
        </Button>
      </DialogFooter>
    </div>
  );
}

/** RestoreBackupDialog restores a backup once the person has typed RESTORE, and shows its progress. */
export function RestoreBackupDialog({ backup, onClose }: { backup: Backup | null; onClose: () => void }) {
  const [typed, setTyped] = useState('');
  const [started, setStarted] = useState<string | null>(null);
  const restore = useRestoreBackupMutation();
  const close = () => {
    setTyped('');
    setStarted(null);
    onClose();
  };
  return (
    <Dialog open={backup !== null} onOpenChange={(open) => !open && !restore.isPending && close()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Restore this backup?</DialogTitle>
          <DialogDescription>
            Everything the instance holds is replaced by "{backup?.name}" from{' '}
            {backup ? new Date(backup.createdAt).toLocaleString() : ''}. The current state is backed up first, and
            changes are refused while the restore runs.
          </DialogDescription>
        </DialogHeader>
        {started && backup ? (
          <RestoreProgress backupId={started} onClose={close} />
        ) : (
          <form
            noValidate
            className="grid gap-4"
            onSubmit={(e) => {
              e.preventDefault();
              if (backup && typed === CONFIRMATION) restore.mutate(backup, { onSuccess: () => setStarted(backup.id) });
            }}
          >
            <FormField id="restore-confirm" label={`Type ${CONFIRMATION} to confirm`}>
              <Input
                id="restore-confirm"
                autoComplete="off"
                autoCapitalize="characters"
                spellCheck={false}
                value={typed}
                onChange={(e) => setTyped(e.target.value)}
              />
            </FormField>
            <DialogFooter>
              <Button type="button" variant="outline" disabled={restore.isPending} onClick={close}>
                Cancel
              </Button>
              <Button type="submit" variant="destructive" disabled={typed !== CONFIRMATION || restore.isPending}>
                {restore.isPending ? 'Checking the archive...' : 'Restore'}
              </Button>
            </DialogFooter>
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}
