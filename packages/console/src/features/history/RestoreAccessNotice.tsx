import { describeAccess } from '@basalt/shared';
import { ShieldAlert } from 'lucide-react';
import { useId } from 'react';
import { Checkbox } from '@/components/ui/checkbox';
import { Label } from '@/components/ui/label';
import { useRestorePreviewQuery } from './history.queries';

// What a restore does to the table's access rules (issue 35): a restore reverts rule changes with the rest, and
// the app's users suddenly seeing nothing must not come as a surprise. The server's preview says what the rules
// become; when they change, the person may keep today's rules.

/**
 * RestoreAccessNotice shows, inside a restore's confirmation, whether the access rules change, from the preview
 * at `previewPath`, and the "Keep today's access rules" box when they do.
 */
export function RestoreAccessNotice({
  previewPath,
  keep,
  onKeepChange,
}: {
  previewPath: string;
  keep: boolean;
  onKeepChange: (keep: boolean) => void;
}) {
  const boxId = useId();
  const preview = useRestorePreviewQuery(previewPath);
  if (preview.isPending) return <p className="text-sm text-muted-foreground">Checking the access rules...</p>;
  if (preview.isError) {
    return <p className="text-sm text-muted-foreground">Could not check what the restore does to the access rules.</p>;
  }
  const { current, restored, changes } = preview.data.access;
  if (!changes) return <p className="text-sm text-muted-foreground">The access rules stay as they are.</p>;
  return (
    <section
      aria-label="Access rules change"
      className="grid gap-3 rounded-md border border-amber-500/40 bg-amber-500/10 p-3 text-sm"
    >
      <p className="flex items-start gap-2 font-medium">
        <ShieldAlert className="mt-0.5 size-4 shrink-0 text-amber-600 dark:text-amber-400" aria-hidden />
        This restore also changes who among your app’s users can reach the table.
      </p>
      <dl className="grid gap-1.5 break-words">
        <div>
          <dt className="inline font-medium">Today: </dt>
          <dd className="inline">{current ? describeAccess(current) : 'the table does not exist'}.</dd>
        </div>
        <div>
          <dt className="inline font-medium">After the restore: </dt>
          <dd className="inline">{restored ? describeAccess(restored) : 'the table will not exist'}.</dd>
        </div>
      </dl>
      {current && restored && (
        <div className="flex items-center gap-2">
          <Checkbox id={boxId} checked={keep} onCheckedChange={(checked) => onKeepChange(checked === true)} />
          <Label htmlFor={boxId}>Keep today’s access rules</Label>
        </div>
      )}
    </section>
  );
}
