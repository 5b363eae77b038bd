import { Activity } from 'lucide-react';
import { useState } from 'react';
import { BarChart } from '@/components/chart/chart';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { LoadErrorState } from '@/components/ui/empty-state';
import { LinkButton } from '@/components/ui/link-button';
import { Skeleton } from '@/components/ui/skeleton';
import { MetricsCharts } from './MetricsCharts';
import { METRIC_RANGES, type MetricRange, useMetricsQuery, useStorageDaysQuery } from './monitoring.queries';
import { RangeTabs } from './RangeTabs';

// The dashboard's API traffic: requests, error rate and p95 latency over 24 hours, 7 or 30 days, and the storage
// of each day of the billing period; the Monitoring view has the same charts per API and route.

// The storage of each day of the billing period, as Billing's usage chart draws it (a level: the caption is the
// latest day's). Billing's own query module is not imported: it would pull its mutations into the dashboard.
function StorageGrowth({ days }: { days: { day: string; storageMb: number | null }[] }) {
  const latest = days.at(-1)?.storageMb ?? 0;
  return (
    <figure id="storage-growth" className="grid scroll-mt-20 gap-2 rounded-lg border bg-card p-4">
      <figcaption className="flex items-baseline justify-between gap-2 text-sm">
        <span className="font-medium">Storage growth</span>
        <span className="text-muted-foreground tabular-nums">{latest.toLocaleString('en-US')} MB now</span>
      </figcaption>
      <BarChart
        rows={days.map((d) => ({ day: d.day, value: d.storageMb }))}
        x="day"
        series={[{ key: 'value', label: 'Storage growth', tone: 'primary' }]}
        listLabel="Storage growth"
        describe={(row) =>
          `${row.day}: ${row.value === null ? 'not measured' : `${Number(row.value).toLocaleString('en-US')} MB`}`
        }
      />
    </figure>
  );
}

/** TrafficPanel is the dashboard's charts panel; Recharts loads lazily, after the page (components/chart). */
export function TrafficPanel() {
  const [range, setRange] = useState<MetricRange>('24h');
  const metrics = useMetricsQuery(range);
  const storage = useStorageDaysQuery();
  return (
    <Card id="api-traffic" className="min-w-0 scroll-mt-20">
      <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-3">
        <div className="grid gap-1">
          <CardTitle>API traffic</CardTitle>
          <CardDescription>Requests, errors and response times of {METRIC_RANGES[range].long}.</CardDescription>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <RangeTabs value={range} onChange={setRange} />
          <LinkButton to="/logs?view=monitoring" icon={Activity}>
            Monitoring
          </LinkButton>
        </div>
      </CardHeader>
      <CardContent className="grid gap-4">
        {metrics.isError && !metrics.data ? (
          <LoadErrorState title="Failed to load metrics" error={metrics.error} onRetry={() => void metrics.refetch()} />
        ) : metrics.data ? (
          <MetricsCharts report={metrics.data} range={range} />
        ) : (
          <Skeleton className="h-44 w-full" />
        )}
        {storage.data && storage.data.length > 0 && <StorageGrowth days={storage.data} />}
      </CardContent>
    </Card>
  );
}
