import { Activity } from 'lucide-react';
import { useState } from 'react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { LoadErrorState } from '@/components/ui/empty-state';
import { LinkButton } from '@/components/ui/link-button';
import { Skeleton } from '@/components/ui/skeleton';
import { useUsageHistoryQuery } from '@/features/billing/billing.queries';
import { UsageChart } from '@/features/billing/UsageChart';
import { MetricsCharts } from './MetricsCharts';
import { METRIC_RANGES, type MetricRange, useMetricsQuery } from './monitoring.queries';
import { RangeTabs } from './RangeTabs';

// The dashboard's API traffic: requests, error rate and p95 latency over 24 hours, 7 or 30 days, and the storage
// of each day of the billing period; the Monitoring view has the same charts per API and route.

/** TrafficPanel is the dashboard's charts panel; its charts load lazily, after the page. */
export default function TrafficPanel() {
  const [range, setRange] = useState<MetricRange>('24h');
  const metrics = useMetricsQuery(range);
  const usage = useUsageHistoryQuery();
  return (
    <Card className="min-w-0">
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
        {usage.data && usage.data.length > 0 && (
          <UsageChart days={usage.data} metric="storageMb" title="Storage growth" unit=" MB" />
        )}
      </CardContent>
    </Card>
  );
}
