import type { FunctionStats } from '@basalt/shared';
import { BarChart } from '@/components/chart/chart';

// Invocations and errors per hour on the console's chart: each hour's bar is its invocations, the part that
// failed drawn in the destructive colour on top of the part that did not.

const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;
const hourOf = (iso: string) => new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });

/** InvocationsChart draws a day of hourly invocations (primary) and errors (destructive). */
export function InvocationsChart({ stats }: { stats: FunctionStats }) {
  const hours = stats.hours;
  const total = hours.reduce((sum, h) => sum + h.invocations, 0);
  const errors = hours.reduce((sum, h) => sum + h.errors, 0);
  const rows = hours.map((h) => ({ hour: h.hour, ok: h.invocations - h.errors, errors: h.errors }));
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
      <div
        role="img"
        aria-label={`${count(total, 'invocation')} and ${count(errors, 'error')} in the last ${hours.length} hours`}
        className="rounded-md border bg-muted/30 px-2 pt-2"
      >
        <BarChart
          rows={rows}
          x="hour"
          stacked
          series={[
            { key: 'ok', label: 'Invocations', tone: 'primary' },
            { key: 'errors', label: 'Errors', tone: 'destructive' },
          ]}
          tick={hourOf}
          listLabel="Invocations per hour"
          describe={(row) =>
            `${new Date(String(row.hour)).toLocaleString()}: ${Number(row.ok) + Number(row.errors)} invocations, ${row.errors} errors`
          }
          className="h-24"
        />
      </div>
    </figure>
  );
}
