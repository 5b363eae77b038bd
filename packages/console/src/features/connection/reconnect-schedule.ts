// Reconnection schedule: 2 s × 1.5^attempt, capped at 30 s, plus up to 1 s of jitter
// so that many tabs do not probe the server in lockstep; at most 10 attempts.

/** RECONNECT_BASE_DELAY_MS and friends are its limits. */
export const RECONNECT_BASE_DELAY_MS = 2000;
export const RECONNECT_BACKOFF_FACTOR = 1.5;
export const RECONNECT_MAX_DELAY_MS = 30_000;
export const RECONNECT_MAX_JITTER_MS = 1000;
export const MAX_RECONNECT_ATTEMPTS = 10;
/** RELOAD_AFTER_ATTEMPTS: a reconnection after more attempts than this reloads the page. */
export const RELOAD_AFTER_ATTEMPTS = 3;
/**
 * HEARTBEAT_MS is how often a visible console asks the server whether it is still there. A page showing cached
 * data sends no request of its own, so without it an outage would go unnoticed until the person acts.
 */
export const HEARTBEAT_MS = 10_000;

/** reconnectDelay is the wait before attempt number `attempt` (0-based); `random` returns [0, 1). */
export function reconnectDelay(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(RECONNECT_BASE_DELAY_MS * RECONNECT_BACKOFF_FACTOR ** attempt, RECONNECT_MAX_DELAY_MS);
  return base + Math.floor(random() * RECONNECT_MAX_JITTER_MS);
}

/** PROBE_TIMEOUT_MS: a server that takes longer than this to answer a probe counts as not answering. */
export const PROBE_TIMEOUT_MS = 5000;

/** probeServer asks whether the server answers: HEAD / without caching. */
export async function probeServer(): Promise<boolean> {
  try {
    const response = await fetch('/', {
      method: 'HEAD',
      cache: 'no-store',
      signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
    });
    return response.ok;
  } catch {
    return false;
  }
}
