import type { UsageDay } from '@basalt/shared';
import { formatAmount } from './UsageMeter';

// A bar per day of the period for one metric: no chart library for a dozen bars. The tallest day fills the height;
// each bar says its day and value to screen readers and on hover. Counted metrics add up over the period; storage
// is a level, so its caption is the latest day's.

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
  const highest = Math.max(0, ...days.map(amountOf));
  const last = days.at(-1);
  const summary =
    metric === 'storageMb'
      ? `${formatAmount(last ? amountOf(last) : 0)}${unit} now`
      : `${formatAmount(days.reduce((sum, d) => sum + amountOf(d), 0))}${unit} this period`;
  return (
    <figure className="grid gap-2 rounded-lg border bg-card p-4">
      <figcaption className="flex items-baseline justify-between gap-2 text-sm">
        <span className="font-medium">{title}</span>
        <span className="text-muted-foreground tabular-nums">{summary}</span>
      </figcaption>
      <ul aria-label={title} className="flex h-28 items-end gap-px">
        {days.map((day) => {
          const value = amountOf(day);
          const height = highest > 0 ? Math.max(2, (value / highest) * 100) : 2;
          const label = `${day.day}: ${day[metric] === null ? 'not measured' : `${formatAmount(value)}${unit}`}`;
          return (
            <li key={day.day} title={label} aria-label={label} className="flex h-full max-w-6 min-w-0 flex-1 items-end">
              <div
                className={value > 0 ? 'w-full rounded-t-sm bg-primary/70' : 'w-full rounded-t-sm bg-muted'}
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
