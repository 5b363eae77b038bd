import type { HealthSnapshot, MetricPoint } from '@basalt/shared';
import type { ChartBand } from '@/components/chart/line-chart';
import { formatBytes } from '@/features/settings/health-status';
import type { MetricRange } from './monitoring.queries';

// How the monitoring screens write numbers and times, and how health snapshots become the chart's status bands.

export { formatBytes };

/** formatMs writes a latency: "0.4 ms", "12 ms", "1.2 s"; a dash when there were no requests. */
export function formatMs(ms: number | null): string {
  if (ms === null) return '–';
  if (ms >= 1000) return `${(ms / 1000).toFixed(1)} s`;
  return ms < 10 ? `${ms.toFixed(1)} ms` : `${Math.round(ms)} ms`;
}

/** formatRate writes a share as a percentage: "0%", "0.4%", "12%". */
export function formatRate(rate: number): string {
  const percent = rate * 100;
  if (percent === 0) return '0%';
  return percent < 10 ? `${percent.toFixed(1)}%` : `${Math.round(percent)}%`;
}

/** formatCount writes a count with thousands separators. */
export const formatCount = (n: number) => n.toLocaleString('en-US');

/** tickOf writes a bucket's start under a chart: the day and time for 24 hours, the date for longer ranges. */
export function tickOf(range: MetricRange): (iso: string) => string {
  return (iso) => {
    const date = new Date(iso);
    if (Number.isNaN(date.getTime())) return iso;
    return range === '24h' ? whenOf(iso) : date.toLocaleDateString('en-US', { month: 'short', day: 'numeric' });
  };
}

/** whenOf writes a bucket's start in a tooltip or a values list. */
export const whenOf = (iso: string) =>
  new Date(iso).toLocaleString('en-US', {
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hour12: false,
  });

/** seriesRows are a report's points as chart rows: requests split into answered and refused, rates, latency. */
export function seriesRows(points: readonly MetricPoint[]) {
  return points.map((p) => ({
    at: p.at,
    ok: p.requests - p.errors4xx - p.errors5xx,
    errors: p.errors4xx + p.errors5xx,
    requests: p.requests,
    errorRate: p.requests === 0 ? null : Math.round(p.errorRate * 1000) / 10,
    p95: p.p95Ms,
  }));
}

/** statusBands turns snapshots into stretches of WARNING and CRITICAL, for a chart's background. */
export function statusBands(snapshots: readonly HealthSnapshot[]): ChartBand[] {
  const bands: ChartBand[] = [];
  let open: ChartBand | null = null;
  for (const s of snapshots) {
    const tone = s.status === 'CRITICAL' ? 'destructive' : s.status === 'WARNING' ? 'warning' : null;
    if (open && open.tone === tone) {
      open.to = s.at;
      continue;
    }
    if (open) bands.push(open);
    open = tone ? { from: s.at, to: s.at, tone } : null;
  }
  if (open) bands.push(open);
  return bands;
}

/** logSearchOf is what to search the log for to find a route's entries: its method and path up to the first id. */
export function logSearchOf(route: string): string {
  const at = route.indexOf(':');
  return (at === -1 ? route : route.slice(0, at)).trim();
}
