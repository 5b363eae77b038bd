import { useEffect, useState } from 'react';
import { onNetworkSignal } from '@/lib/network-signals';
import { isRealtimeConnected } from '@/lib/realtime';
import {
  HEARTBEAT_MS,
  MAX_RECONNECT_ATTEMPTS,
  probeServer,
  RELOAD_AFTER_ATTEMPTS,
  reconnectDelay,
} from './reconnect-schedule';

/** ConnectionState is the banner's state. */
export type ConnectionState = 'connected' | 'disconnected' | 'reconnecting';

/** ConnectionMonitorOptions replace the browser's probe, reload, randomness and heartbeat (tests). */
export interface ConnectionMonitorOptions {
  probe?: () => Promise<boolean>;
  reload?: () => void;
  random?: () => number;
  heartbeatMs?: number;
  /** live tells whether the realtime socket is connected: then it watches the connection and no probe is sent. */
  live?: () => boolean;
}

/** ConnectionStatus is the state and how many probes the current outage has made. */
export interface ConnectionStatus {
  state: ConnectionState;
  attempts: number;
}

const reloadPage = () => window.location.reload();

/**
 * useConnectionMonitor notices a lost connection (the browser's offline event, a request that never reached
 * the server, or a probe that failed: the heartbeat's, or one asked for by a doubt such as a page's code that
 * did not load) and probes until the server answers: `disconnected` when the loss is noticed and after the
 * last attempt fails, `reconnecting` while attempts are under way.
 */
export function useConnectionMonitor({
  probe = probeServer,
  reload = reloadPage,
  random = Math.random,
  heartbeatMs = HEARTBEAT_MS,
  live = isRealtimeConnected,
}: ConnectionMonitorOptions = {}): ConnectionStatus {
  const [status, setStatus] = useState<ConnectionStatus>({ state: 'connected', attempts: 0 });

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let attempts = 0;
    let outage = false;
    let probing = false;
    let disposed = false;

    const attempt = async () => {
      timer = undefined;
      if (probing) {
        // A heartbeat probe is still out: wait for the next turn rather than asking twice at once.
        timer = setTimeout(attempt, reconnectDelay(attempts, random));
        return;
      }
      probing = true;
      attempts += 1;
      setStatus({ state: 'reconnecting', attempts });
      const ok = await probe();
      probing = false;
      if (disposed || !outage) return;
      if (ok) {
        outage = false;
        if (attempts > RELOAD_AFTER_ATTEMPTS) {
          // A long outage: the page may hold stale data and a dead realtime socket; start afresh.
          reload();
          return;
        }
        attempts = 0;
        setStatus({ state: 'connected', attempts: 0 });
        return;
      }
      if (attempts >= MAX_RECONNECT_ATTEMPTS) {
        setStatus({ state: 'disconnected', attempts });
        return;
      }
      timer = setTimeout(attempt, reconnectDelay(attempts, random));
    };

    const lose = () => {
      if (outage) return;
      outage = true;
      attempts = 0;
      setStatus({ state: 'disconnected', attempts: 0 });
      timer = setTimeout(attempt, reconnectDelay(0, random));
    };

    // The browser says the network is back: probe at once instead of waiting for the next attempt.
    const online = () => {
      if (!outage || probing) return;
      clearTimeout(timer);
      void attempt();
    };

    // While all seems well: ask the server, and treat no answer as a loss. A hidden tab does not ask; it asks
    // as soon as it shows again. While the realtime socket is connected it is the heartbeat (a dropped socket
    // is a doubt its channels report), so the heartbeat asks nothing then.
    const check = async (fromHeartbeat = false) => {
      if (outage || probing || document.visibilityState === 'hidden') return;
      if (fromHeartbeat && live()) return;
      probing = true;
      const ok = await probe();
      probing = false;
      if (!ok && !disposed) lose();
    };
    const shown = () => void check();

    window.addEventListener('offline', lose);
    window.addEventListener('online', online);
    document.addEventListener('visibilitychange', shown);
    const heartbeat = setInterval(() => void check(true), heartbeatMs);
    const unsubscribe = onNetworkSignal((signal) => (signal === 'lost' ? lose() : void check()));
    return () => {
      disposed = true;
      clearTimeout(timer);
      clearInterval(heartbeat);
      window.removeEventListener('offline', lose);
      window.removeEventListener('online', online);
      document.removeEventListener('visibilitychange', shown);
      unsubscribe();
    };
  }, [probe, reload, random, heartbeatMs, live]);

  return status;
}
