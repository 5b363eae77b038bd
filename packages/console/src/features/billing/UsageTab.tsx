import { type Usage, usagePercent } from '@basalt/shared';
import { Sparkles } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { formatDate } from '@/components/ui/relative-time';
import { Skeleton } from '@/components/ui/skeleton';
import { useUsageHistoryQuery } from './billing.queries';
import { UsageChart } from './UsageChart';
import { formatAmount, limitOf, METRICS, ProgressBar } from './UsageMeter';

/** UsageTab is each metric's percent used, used and limit; the usage per day; and an upgrade prompt. */
export function UsageTab({ usage, onUpgrade }: { usage: Usage | undefined; onUpgrade: () => void }) {
  const history = useUsageHistoryQuery();
  return (
    <div className="grid gap-6">
      <Card>
        <CardHeader>
          <CardTitle>Usage this billing period</CardTitle>
          <CardDescription>
            {usage ? `${formatDate(usage.periodStart)} – ${formatDate(usage.periodEnd)}` : 'Loading…'}
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-5">
          {usage
            ? METRICS.map((entry) => {
                const used = usage[entry.metric];
                const limit = limitOf(usage, entry.max);
                const percent = usagePercent(used, limit);
                return (
                  <div key={entry.metric} className="grid gap-2">
                    <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 text-sm">
                      <span className="font-medium">{entry.label}</span>
                      <span className="text-muted-foreground tabular-nums">
                        {limit === null
                          ? `${formatAmount(used)}${entry.unit} used · Unlimited`
                          : `${Math.round(percent)}% · ${formatAmount(used)} of ${formatAmount(limit)}${entry.unit}`}
                      </span>
                    </div>
                    <ProgressBar percent={percent} label={`${entry.label} used`} />
                  </div>
                );
              })
            : METRICS.map((entry) => <Skeleton key={entry.metric} className="h-8" />)}
        </CardContent>
      </Card>
      {history.data && (
        <div className="grid gap-4 md:grid-cols-2">
          <UsageChart days={history.data} metric="apiCalls" title="API calls per day" />
          <UsageChart days={history.data} metric="computeMinutes" title="Compute minutes per day" />
          <UsageChart days={history.data} metric="storageMb" title="Storage per day" unit=" MB" />
        </div>
      )}
      <div className="flex flex-col gap-3 rounded-lg border border-primary/30 bg-primary/5 p-4 sm:flex-row sm:items-center sm:justify-between">
        <div className="flex gap-3 text-sm">
          <Sparkles aria-hidden className="mt-0.5 size-4 shrink-0 text-primary" />
          <div>
            <p className="font-medium">Need more?</p>
            <p className="text-muted-foreground">Upgrade your plan for more API calls, storage and compute.</p>
          </div>
        </div>
        <Button onClick={onUpgrade}>View Plans</Button>
      </div>
    </div>
  );
}
