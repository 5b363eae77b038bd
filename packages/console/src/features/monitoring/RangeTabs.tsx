import { Tabs, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { isMetricRange, METRIC_RANGES, type MetricRange } from './monitoring.queries';

/** RangeTabs chooses a chart's range: 24 h, 7 d or 30 d. */
export function RangeTabs({ value, onChange }: { value: MetricRange; onChange: (range: MetricRange) => void }) {
  return (
    <Tabs value={value} onValueChange={(next) => isMetricRange(next) && onChange(next)}>
      <TabsList aria-label="Range">
        {Object.entries(METRIC_RANGES).map(([key, r]) => (
          <TabsTrigger key={key} value={key} aria-label={r.long}>
            {r.label}
          </TabsTrigger>
        ))}
      </TabsList>
    </Tabs>
  );
}
