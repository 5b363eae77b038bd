import { RefreshCw, TriangleAlert } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { LoadErrorState } from '@/components/ui/empty-state';
import { Skeleton } from '@/components/ui/skeleton';
import { useApiOrigin } from '@/lib/config';
import { useAppQuery, useRollAppKeysMutation } from './app.queries';
import { SecretField } from './SecretField';

/**
 * AppKeysCard shows the app's URL and both keys with copy buttons (the service key masked until revealed), and
 * rolls them.
 */
export function AppKeysCard() {
  const app = useAppQuery();
  const origin = useApiOrigin();
  const roll = useRollAppKeysMutation();
  const [confirming, setConfirming] = useState(false);

  return (
    <Card>
      <CardHeader className="gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="grid gap-1.5">
          <CardTitle>App keys</CardTitle>
          <CardDescription>
            Give the URL and the anon key to <code className="font-mono text-xs">createClient</code> in your app: its
            users sign up and reach your tables under their access rules.
          </CardDescription>
        </div>
        <Button
          variant="outline"
          size="sm"
          className="w-fit"
          disabled={!app.data || roll.isPending}
          onClick={() => setConfirming(true)}
        >
          <RefreshCw />
          Roll keys
        </Button>
      </CardHeader>
      <CardContent className="grid gap-4">
        {app.isError ? (
          <LoadErrorState title="Failed to load the app keys" error={app.error} onRetry={() => void app.refetch()} />
        ) : !app.data ? (
          <div className="grid gap-3" role="status" aria-label="Loading app keys">
            <Skeleton className="h-9 w-full" />
            <Skeleton className="h-9 w-full" />
            <Skeleton className="h-9 w-full" />
          </div>
        ) : (
          <>
            <SecretField id="app-url" label="URL" value={origin} />
            <SecretField id="app-anon-key" label="Anon key" value={app.data.anonKey} />
            <SecretField id="app-service-key" label="Service key" value={app.data.serviceKey} masked />
            <p className="flex gap-2 text-xs text-muted-foreground">
              <TriangleAlert aria-hidden className="size-4 shrink-0 text-warning" />
              The service key bypasses every access rule: use it only on your server, never in a browser or app.
            </p>
          </>
        )}
      </CardContent>
      <ConfirmDialog
        open={confirming}
        title="Roll the app keys?"
        description="New anon and service keys are issued and the current ones stop working at once. Signed-in users stay signed in."
        confirmLabel="Roll keys"
        onConfirm={() => roll.mutate()}
        onClose={() => setConfirming(false)}
      />
    </Card>
  );
}
