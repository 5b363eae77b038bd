import type { HealthSnapshot } from '@basalt/shared';
import { Activity } from 'lucide-react';
import { LineChart } from '@/components/chart/line-chart';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { EmptyState, LoadErrorState } from '@/components/ui/empty-state';
import { Skeleton } from '@/components/ui/skeleton';
import { formatBytes, formatMs, statusBands, tickOf, whenOf } from './metric-format';
import { METRIC_RANGES, type MetricRange, useHealthHistoryQuery } from './monitoring.queries';

// The database's health over a range: the round trip's latency, over bands where the status was WARNING or
// CRITICAL, and the latest snapshot's status and sizes.

const STATUS_BADGE = { HEALTHY: 'default', WARNING: 'warning', CRITICAL: 'destructive' } as const;

function Latest({ snapshot }: { snapshot: HealthSnapshot }) {
  const facts = [
    ['Latency', formatMs(snapshot.latencyMs)],
    ['Database', snapshot.databaseBytes === null ? '–' : formatBytes(snapshot.databaseBytes)],
    ['Disk free', snapshot.diskFreeBytes === null ? '–' : formatBytes(snapshot.diskFreeBytes)],
    ['CPU', `${snapshot.cpuPercent}%`],
    ['Memory', formatBytes(snapshot.rssBytes)],
    ['Connections', `${snapshot.activeConnections} / ${snapshot.maxConnections}`],
  ];
  return (
    <dl className="grid grid-cols-2 gap-x-4 gap-y-2 text-sm sm:grid-cols-3 lg:grid-cols-6">
      {facts.map(([label, value]) => (
        <div key={label} className="min-w-0">
          <dt className="text-xs text-muted-foreground">{label}</dt>
          <dd className="truncate font-medium tabular-nums">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** HealthHistoryCard shows the database's health over `range`. */
export function HealthHistoryCard({ range }: { range: MetricRange }) {
  const history = useHealthHistoryQuery(range);
  const snapshots = history.data?.snapshots ?? [];
  const latest = snapshots.at(-1);
  const healthy = snapshots.filter((s) => s.status === 'HEALTHY').length;
  let body: React.ReactNode;
  if (history.isError && !history.data) {
    body = (
      <LoadErrorState
        title="Failed to load health history"
        error={history.error}
        onRetry={() => void history.refetch()}
      />
    );
  } else if (history.isPending) {
    body = <Skeleton className="h-36 w-full" />;
  } else if (!latest) {
    body = (
      <EmptyState
        icon={Activity}
        title="No health snapshots yet"
        description="The server takes one every minute; the first appears shortly after it starts."
      />
    );
  } else {
    body = (
      <div className="grid gap-4">
        <LineChart
          rows={snapshots.map((s) => ({ at: s.at, latency: s.latencyMs, status: s.status }))}
          x="at"
          series={[{ key: 'latency', label: 'Latency', tone: 'primary' }]}
          bands={statusBands(snapshots)}
          tick={tickOf(range)}
          value={(v) => `${v}\u00a0ms`}
          listLabel="Database latency"
          describe={(row) =>
            `${whenOf(String(row.at))}: ${row.status}, ${row.latency === null ? 'no answer' : formatMs(Number(row.latency))}`
          }
        />
        <Latest snapshot={latest} />
      </div>
    );
  }
  return (
    <Card className="min-w-0">
      <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-2">
        <div className="grid gap-1">
          <CardTitle>Database health</CardTitle>
          <CardDescription>
            {snapshots.length > 0
              ? `Healthy ${Math.round((healthy / snapshots.length) * 100)}% of ${METRIC_RANGES[range].long}`
              : `A snapshot a minute, kept 30 days`}
          </CardDescription>
        </div>
        {latest && <Badge variant={STATUS_BADGE[latest.status]}>{latest.status}</Badge>}
      </CardHeader>
      <CardContent>{body}</CardContent>
    </Card>
  );
}
