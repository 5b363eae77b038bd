import type { FunctionStats } from '@basalt/shared';

// Invocations and errors per hour as bars: an SVG with no chart library. Errors are drawn over the invocations
// of the same hour; the tallest hour sets the scale.

const HEIGHT = 96;

const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

/** InvocationsChart draws a day of hourly invocations (primary) and errors (destructive). */
export function InvocationsChart({ stats }: { stats: FunctionStats }) {
  const hours = stats.hours;
  const peak = Math.max(1, ...hours.map((h) => h.invocations));
  const total = hours.reduce((sum, h) => sum + h.invocations, 0);
  const errors = hours.reduce((sum, h) => sum + h.errors, 0);
  const width = 100 / Math.max(1, hours.length);
  return (
    <figure className="grid gap-2">
      <figcaption className="flex flex-wrap items-center gap-x-4 gap-y-1 text-xs text-muted-foreground">
        <span className="flex items-center gap-1.5">
          <span aria-hidden className="size-2.5 rounded-sm bg-primary" />
          {count(total, 'invocation')}
        </span>
        <span className="flex items-center gap-1.5">
          <span aria-hidden className="size-2.5 rounded-sm bg-destructive" />
          {count(errors, 'error')}
        </span>
        <span>last {hours.length} hours</span>
      </figcaption>
      <svg
        role="img"
        aria-label={`${count(total, 'invocation')} and ${count(errors, 'error')} in the last ${hours.length} hours`}
        viewBox={`0 0 100 ${HEIGHT}`}
        preserveAspectRatio="none"
        className="h-24 w-full rounded-md border bg-muted/30"
      >
        {hours.map((hour, i) => {
          const calls = (hour.invocations / peak) * (HEIGHT - 4);
          const failed = (hour.errors / peak) * (HEIGHT - 4);
          const x = i * width + width * 0.15;
          return (
            <g key={hour.hour}>
              <title>{`${new Date(hour.hour).toLocaleString()}: ${hour.invocations} invocations, ${hour.errors} errors`}</title>
              <rect x={x} y={HEIGHT - calls} width={width * 0.7} height={calls} className="fill-primary/70" />
              <rect x={x} y={HEIGHT - failed} width={width * 0.7} height={failed} className="fill-destructive" />
            </g>
          );
        })}
      </svg>
    </figure>
  );
}
