// How the console's parts tell the connection monitor that the server may be gone, without knowing it.
// 'lost': a request could not reach the server at all (fetch threw), so the connection is down.
// 'doubt': something failed that a lost connection would explain, but so would other causes (a page's code
// did not download: the server may be down, or a new deployment replaced that file); the monitor asks the
// server before it says anything.

/** NetworkSignal is what a part of the console noticed. */
export type NetworkSignal = 'lost' | 'doubt';

const listeners = new Set<(signal: NetworkSignal) => void>();

/** onNetworkSignal subscribes to the signals; returns the unsubscribe. */
export function onNetworkSignal(listener: (signal: NetworkSignal) => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** reportNetworkSignal tells every listener. */
export function reportNetworkSignal(signal: NetworkSignal): void {
  for (const listener of listeners) listener(signal);
}

/**
 * fetchReportingLoss is fetch that reports 'lost' when the request never reached the server; a request the
 * caller cancelled is not a loss. For clients that bring their own fetch (supabase-js).
 */
export const fetchReportingLoss: typeof fetch = async (input, init) => {
  try {
    return await fetch(input, init);
  } catch (error) {
    if (error instanceof TypeError && !init?.signal?.aborted) reportNetworkSignal('lost');
    throw error;
  }
};
