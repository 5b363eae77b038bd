import { API_FAMILIES, type ApiFamily } from '@basalt/shared/monitoring';
import { Activity } from 'lucide-react';
import { useSearchParams } from 'react-router';
import { EmptyState, LoadErrorState } from '@/components/ui/empty-state';
import { NativeSelect } from '@/components/ui/native-select';
import { Skeleton } from '@/components/ui/skeleton';
import { HealthHistoryCard } from './HealthHistoryCard';
import { InsightsCard } from './InsightsCard';
import { MetricsCharts } from './MetricsCharts';
import { isMetricRange, type MetricRange, useMetricsQuery } from './monitoring.queries';
import { RangeTabs } from './RangeTabs';
import { familyName, RouteTables } from './RouteTables';

// The Monitoring view of /logs (?view=monitoring): the account's requests, error rate and p95 latency over 24 hours,
// 7 or 30 days, for every API or one; the busiest APIs, the slowest routes, the top errors; the database's health.
// The range and the API are kept in the address, so a reload or a shared link shows the same.

const isFamily = (value: unknown): value is ApiFamily =>
  typeof value === 'string' && (API_FAMILIES as readonly string[]).includes(value);

/** MonitoringView is the Monitoring tab of the System Logs page. */
export function MonitoringView() {
  const [params, setParams] = useSearchParams();
  const rangeParam = params.get('range');
  const familyParam = params.get('api');
  const range: MetricRange = isMetricRange(rangeParam) ? rangeParam : '24h';
  const family = isFamily(familyParam) ? familyParam : null;
  const metrics = useMetricsQuery(range, family);
  const set = (key: string, value: string | null) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value === null) next.delete(key);
        else next.set(key, value);
        return next;
      },
      { replace: true },
    );

  let body: React.ReactNode;
  if (metrics.isError && !metrics.data) {
    body = (
      <LoadErrorState title="Failed to load metrics" error={metrics.error} onRetry={() => void metrics.refetch()} />
    );
  } else if (metrics.isPending) {
    body = <Skeleton className="h-48 w-full" data-testid="metrics-skeleton" />;
  } else if (metrics.data.totals.requests === 0 && family === null) {
    body = (
      <EmptyState
        icon={Activity}
        title="No API requests yet"
        description="Charts appear here as your apps and the console call the API."
      />
    );
  } else {
    body = (
      <>
        <MetricsCharts report={metrics.data} range={range} />
        <RouteTables report={metrics.data} />
      </>
    );
  }

  return (
    <div className="grid grid-cols-1 gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <RangeTabs value={range} onChange={(next) => set('range', next === '24h' ? null : next)} />
        <NativeSelect
          aria-label="API"
          containerClassName="w-full sm:w-48"
          value={family ?? ''}
          onChange={(event) => set('api', event.target.value || null)}
        >
          <option value="">All APIs</option>
          {API_FAMILIES.map((f) => (
            <option key={f} value={f}>
              {familyName(f)}
            </option>
          ))}
        </NativeSelect>
      </div>
      {body}
      <HealthHistoryCard range={range} />
      <InsightsCard />
    </div>
  );
}
