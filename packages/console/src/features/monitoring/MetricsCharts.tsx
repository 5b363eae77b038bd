import type { MetricsReport } from '@basalt/shared';
import { BarChart } from '@/components/chart/chart';
import { LineChart } from '@/components/chart/line-chart';
import { cn } from '@/lib/cn';
import { formatCount, formatMs, formatRate, seriesRows, tickOf, whenOf } from './metric-format';
import type { MetricRange } from './monitoring.queries';

// The three charts of a metrics report: API requests (answered and refused, stacked), the error rate and the p95
// latency, each with its figure for the whole range.

function ChartFigure({ title, figure, children }: { title: string; figure: string; children: React.ReactNode }) {
  return (
    <figure className="grid min-w-0 gap-2 rounded-lg border bg-card p-4">
      <figcaption className="flex items-baseline justify-between gap-2 text-sm">
        <span className="font-medium">{title}</span>
        <span className="text-muted-foreground tabular-nums">{figure}</span>
      </figcaption>
      {children}
    </figure>
  );
}

/** MetricsCharts draws a report's requests, error rate and p95 latency over its range. */
export function MetricsCharts({
  report,
  range,
  className,
}: {
  report: MetricsReport;
  range: MetricRange;
  className?: string;
}) {
  const rows = seriesRows(report.series);
  const tick = tickOf(range);
  const { totals } = report;
  return (
    <div className={cn('grid grid-cols-1 gap-4 lg:grid-cols-3', className)}>
      <ChartFigure title="API requests" figure={formatCount(totals.requests)}>
        <BarChart
          rows={rows}
          x="at"
          stacked
          series={[
            { key: 'ok', label: 'Answered', tone: 'primary' },
            { key: 'errors', label: 'Errors', tone: 'destructive' },
          ]}
          tick={tick}
          className="h-36"
          listLabel="API requests"
          describe={(row) =>
            `${whenOf(String(row.at))}: ${formatCount(Number(row.requests))} requests, ${formatCount(Number(row.errors))} errors`
          }
        />
      </ChartFigure>
      <ChartFigure title="Error rate" figure={formatRate(totals.errorRate)}>
        <LineChart
          rows={rows}
          x="at"
          series={[{ key: 'errorRate', label: 'Error rate', tone: 'destructive' }]}
          tick={tick}
          value={(v) => `${v}%`}
          listLabel="Error rate"
          describe={(row) =>
            `${whenOf(String(row.at))}: ${row.errorRate === null ? 'no requests' : `${row.errorRate}% errors`}`
          }
        />
      </ChartFigure>
      <ChartFigure title="p95 latency" figure={formatMs(totals.p95Ms)}>
        <LineChart
          rows={rows}
          x="at"
          series={[{ key: 'p95', label: 'p95 latency', tone: 'primary' }]}
          tick={tick}
          value={(v) => `${v}\u00a0ms`}
          listLabel="p95 latency"
          describe={(row) =>
            `${whenOf(String(row.at))}: ${row.p95 === null ? 'no requests' : `p95 ${formatMs(Number(row.p95))}`}`
          }
        />
      </ChartFigure>
    </div>
  );
}
