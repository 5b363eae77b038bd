// The database health badge: Checking while a check runs,
// Error when the check itself failed, Connected or Disconnected from the answer, Unknown before any answer.

/** HealthStatus is what the badge says. */
export type HealthStatus = 'checking' | 'error' | 'connected' | 'disconnected' | 'unknown';

/** HEALTH_LABELS are the badge texts. */
export const HEALTH_LABELS: Record<HealthStatus, string> = {
  checking: 'Checking',
  error: 'Error',
  connected: 'Connected',
  disconnected: 'Disconnected',
  unknown: 'Unknown',
};

/** healthStatus picks the badge from the check's state; a running check wins, then a failed one. */
export function healthStatus(state: {
  checking: boolean;
  failed: boolean;
  connected: boolean | undefined;
}): HealthStatus {
  if (state.checking) return 'checking';
  if (state.failed) return 'error';
  if (state.connected === undefined) return 'unknown';
  return state.connected ? 'connected' : 'disconnected';
}

/** formatPercent shows a 0–1 ratio as a whole percentage, clamped to 0–100. */
export function formatPercent(ratio: number): string {
  return `${Math.round(Math.min(Math.max(ratio, 0), 1) * 100)}%`;
}

/** formatMilliseconds shows a duration: "0.42 ms", "12.3 ms", "1,204 ms". */
export function formatMilliseconds(ms: number): string {
  if (ms < 1) return `${ms.toFixed(2)} ms`;
  if (ms < 100) return `${ms.toFixed(1)} ms`;
  return `${Math.round(ms).toLocaleString('en-US')} ms`;
}

/** formatBytes shows a size in B, KB, MB or GB (1024 steps, one decimal above bytes). */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = Math.max(bytes, 0);
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${value} B` : `${value.toFixed(1)} ${units[unit]}`;
}

/** EngineFact is one labelled fact about the database engine. */
export interface EngineFact {
  label: string;
  value: string;
}

const count = (n: number) => n.toLocaleString('en-US');
const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/**
 * engineFacts turns the health answer's engine details (sizes, connections, the pool; they differ per engine)
 * into readable lines, in a fixed order; keys it does not know are left out.
 */
export function engineFacts(details: Record<string, unknown>): EngineFact[] {
  const facts: EngineFact[] = [];
  const add = (key: string, label: string, format: (n: number) => string) => {
    const value = details[key];
    if (isNumber(value)) facts.push({ label, value: format(value) });
  };
  add('sizeBytes', 'Database size', formatBytes);
  add('walSizeBytes', 'Write-ahead log', formatBytes);
  add('freePages', 'Free pages', count);
  add('serverConnections', 'Server connections', count);
  add('longRunningQueries', 'Queries running over 1 s', count);
  const pool = details.pool;
  if (typeof pool === 'object' && pool !== null && 'size' in pool && 'max' in pool) {
    const { size, max } = pool;
    const idle = 'idle' in pool && isNumber(pool.idle) ? `, ${pool.idle} idle` : '';
    const waiting = 'waiting' in pool && isNumber(pool.waiting) && pool.waiting > 0 ? `, ${pool.waiting} waiting` : '';
    if (isNumber(size) && isNumber(max))
      facts.push({ label: 'Connection pool', value: `${size} of ${max}${idle}${waiting}` });
  }
  add('probeQueries', 'Probe queries timed', count);
  add('slowQueryMs', 'Slow above', (n) => `${count(n)} ms`);
  return facts;
}
