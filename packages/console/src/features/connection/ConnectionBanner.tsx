import { RefreshCw, WifiOff } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { MAX_RECONNECT_ATTEMPTS } from './reconnect-schedule';
import { type ConnectionMonitorOptions, useConnectionMonitor } from './useConnectionMonitor';

/** ConnectionBanner appears at the bottom right while the server cannot be reached. */
export function ConnectionBanner(props: ConnectionMonitorOptions & { onReconnectNow?: () => void }) {
  const { onReconnectNow = () => window.location.reload(), ...options } = props;
  const { state, attempts } = useConnectionMonitor(options);
  if (state === 'connected') return null;
  const reconnecting = state === 'reconnecting';
  return (
    <div
      role="alert"
      aria-live="assertive"
      className="fixed right-4 bottom-20 left-4 z-[60] rounded-xl border border-destructive/30 bg-card p-4 shadow-xl sm:left-auto sm:w-96"
    >
      <div className="flex gap-3">
        <span className="mt-0.5 flex size-8 shrink-0 items-center justify-center rounded-full bg-destructive/10 text-destructive">
          {reconnecting ? (
            <Spinner className="size-4 text-destructive" label="Reconnecting" />
          ) : (
            <WifiOff className="size-4" />
          )}
        </span>
        <div className="min-w-0 flex-1">
          {/* The attempt count sits in the title row, which has room for it on one line at any width. */}
          <p className="flex items-baseline justify-between gap-2">
            <span className="font-semibold">{reconnecting ? 'Reconnecting...' : 'Connection Lost'}</span>
            {reconnecting && (
              <span className="text-xs whitespace-nowrap text-muted-foreground tabular-nums">
                ({attempts}/{MAX_RECONNECT_ATTEMPTS})
              </span>
            )}
          </p>
          <p className="mt-0.5 text-sm text-muted-foreground">Your connection to the server has been lost.</p>
          {reconnecting && (
            <p className="mt-1 text-sm text-muted-foreground">Attempting to re-establish connection...</p>
          )}
          <Button size="sm" variant="outline" className="mt-3" onClick={onReconnectNow}>
            <RefreshCw />
            Reconnect Now
          </Button>
        </div>
      </div>
    </div>
  );
}
