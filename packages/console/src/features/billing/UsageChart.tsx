import type { UsageDay } from '@basalt/shared';
import { formatAmount } from './UsageMeter';

// A bar per day of the period for one metric: no chart library for a dozen bars. The tallest day fills the height;
// each bar says its day and value to screen readers and on hover.

/** UsageChart draws `metric` per day as bars. */
export function UsageChart({
  days,
  metric,
  title,
}: {
  days: UsageDay[];
  metric: 'apiCalls' | 'computeMinutes';
  title: string;
}) {
  const highest = Math.max(0, ...days.map((d) => d[metric]));
  const total = days.reduce((sum, d) => sum + d[metric], 0);
  return (
    <figure className="grid gap-2 rounded-lg border bg-card p-4">
      <figcaption className="flex items-baseline justify-between gap-2 text-sm">
        <span className="font-medium">{title}</span>
        <span className="text-muted-foreground tabular-nums">{formatAmount(total)} this period</span>
      </figcaption>
      <ul aria-label={`${title} per day`} className="flex h-28 items-end gap-px">
        {days.map((day) => {
          const height = highest > 0 ? Math.max(2, (day[metric] / highest) * 100) : 2;
          const label = `${day.day}: ${formatAmount(day[metric])}`;
          return (
            <li key={day.day} title={label} aria-label={label} className="flex h-full max-w-6 min-w-0 flex-1 items-end">
              <div
                className={day[metric] > 0 ? 'w-full rounded-t-sm bg-primary/70' : 'w-full rounded-t-sm bg-muted'}
                style={{ height: `${height}%` }}
              />
            </li>
          );
        })}
      </ul>
      <div className="flex justify-between text-xs text-muted-foreground">
        <span>{days[0]?.day ?? ''}</span>
        <span>{days.at(-1)?.day ?? ''}</span>
      </div>
    </figure>
  );
}
