import type { UsageDay } from '@basalt/shared';
import { BarChart } from '@/components/chart/chart';
import { formatAmount } from './UsageMeter';

// A bar per day of the period for one metric, on the console's chart. Counted metrics add up over the period;
// storage is a level, so its caption is the latest day's.

/** UsageChart draws `metric` per day as bars; `unit` follows each value. */
export function UsageChart({
  days,
  metric,
  title,
  unit = '',
}: {
  days: UsageDay[];
  metric: 'apiCalls' | 'computeMinutes' | 'storageMb';
  title: string;
  unit?: string;
}) {
  const amountOf = (day: UsageDay) => day[metric] ?? 0;
  const last = days.at(-1);
  const summary =
    metric === 'storageMb'
      ? `${formatAmount(last ? amountOf(last) : 0)}${unit} now`
      : `${formatAmount(days.reduce((sum, d) => sum + amountOf(d), 0))}${unit} this period`;
  const rows = days.map((day) => ({ day: day.day, value: day[metric] }));
  return (
    <figure className="grid gap-2 rounded-lg border bg-card p-4">
      <figcaption className="flex items-baseline justify-between gap-2 text-sm">
        <span className="font-medium">{title}</span>
        <span className="text-muted-foreground tabular-nums">{summary}</span>
      </figcaption>
      <BarChart
        rows={rows}
        x="day"
        series={[{ key: 'value', label: title, tone: 'primary' }]}
        listLabel={title}
        describe={(row) =>
          `${row.day}: ${row.value === null ? 'not measured' : `${formatAmount(Number(row.value))}${unit}`}`
        }
      />
    </figure>
  );
}
