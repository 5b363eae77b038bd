import { ShieldCheck } from 'lucide-react';
import { useState } from 'react';
import { AccessRulesEditor } from '@/components/access-rules';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { DialogForm, FormDialog } from '@/components/ui/form-dialog';
import { useUpdateBucketAccessMutation } from './storage.queries';
import {
  BUCKET_RULE_WORDS,
  type BucketAccess,
  describeBucketAccess,
  describeBucketRule,
  STORAGE_OPERATIONS,
  sameBucketAccess,
} from './storage-rules';

// A bucket's access rules on the Storage page: said in plain words for the chosen bucket, and changed in a dialog
// built from the same editor as tables' rules (components/access-rules.tsx).

/** RulesBucket is what the rules card knows of a bucket. */
export interface RulesBucket {
  name: string;
  public: boolean;
  access: BucketAccess;
}

const OWN_FOLDER = 'Their own folder is the first folder named by their user id, such as <user id>/avatar.png.';

/** BucketRulesCard says who of the app's users may do what in a bucket, with a button to change it. */
export function BucketRulesCard({ bucket }: { bucket: RulesBucket }) {
  const [editing, setEditing] = useState(false);
  const usesOwn = STORAGE_OPERATIONS.some((op) => bucket.access[op] === 'own');
  const sameForAll = STORAGE_OPERATIONS.every((op) => bucket.access[op] === bucket.access.read);
  return (
    <Card className="self-start" aria-label={`Access rules of ${bucket.name}`} role="region">
      <div className="grid gap-3 p-4 text-sm">
        <div className="flex items-center justify-between gap-2">
          <h2 className="flex items-center gap-2 font-semibold">
            <ShieldCheck aria-hidden className="size-4 text-primary" />
            Access rules
          </h2>
          <Button variant="outline" size="sm" onClick={() => setEditing(true)}>
            Edit rules
          </Button>
        </div>
        {/* One line when every operation has the same rule, else a line per operation. */}
        <ul aria-label="Rules in plain words" className="grid gap-1.5">
          {sameForAll ? (
            <li>{describeBucketAccess(bucket.access)}.</li>
          ) : (
            STORAGE_OPERATIONS.map((op) => <li key={op}>{describeBucketRule(op, bucket.access[op])}.</li>)
          )}
        </ul>
        {bucket.public && (
          <p className="text-muted-foreground text-xs">
            The bucket is public: anyone with a file's public link can read it, whatever the read rule says.
          </p>
        )}
        {usesOwn && <p className="text-muted-foreground text-xs">{OWN_FOLDER}</p>}
        <p className="text-muted-foreground text-xs">
          For your app's users and visitors (its keys). You, your API keys and the app service key always have full
          access.
        </p>
      </div>
      <FormDialog
        open={editing}
        onOpenChange={setEditing}
        title={`Access rules of ${bucket.name}`}
        description="Who of your app's users may use this bucket's files through /storage/v1 with your app keys."
        className="sm:max-w-2xl"
      >
        <RulesForm bucket={bucket} onClose={() => setEditing(false)} />
      </FormDialog>
    </Card>
  );
}

function RulesForm({ bucket, onClose }: { bucket: RulesBucket; onClose: () => void }) {
  const save = useUpdateBucketAccessMutation(bucket.name);
  const [draft, setDraft] = useState<BucketAccess>(bucket.access);
  const changed = !sameBucketAccess(draft, bucket.access);
  return (
    <DialogForm
      aria-label="Bucket access rules"
      onSubmit={() => {
        if (!changed) return onClose();
        save.mutate(draft, { onSuccess: onClose });
      }}
      onCancel={onClose}
      submitLabel="Save rules"
      pendingLabel="Saving…"
      pending={save.isPending}
      submitDisabled={!changed}
    >
      <AccessRulesEditor
        idPrefix="bucket-access"
        words={BUCKET_RULE_WORDS}
        value={draft}
        onChange={(op, rule) => setDraft((current) => ({ ...current, [op]: rule }))}
      />
      {STORAGE_OPERATIONS.some((op) => draft[op] === 'own') && (
        <p className="text-muted-foreground text-xs">{OWN_FOLDER}</p>
      )}
    </DialogForm>
  );
}
