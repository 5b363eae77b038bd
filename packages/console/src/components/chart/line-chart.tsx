import { lazy, Suspense } from 'react';
import { cn } from '@/lib/cn';
import type { ChartRow, ChartSeries } from './chart';

// The console's line chart: one or more series over time, drawn by Recharts as areas, optionally over coloured
// bands (a status's stretches of time). Like BarChart it loads Recharts only when it first shows, keeps its height
// meanwhile, and lists its values for screen readers and tests.

/** ChartBand colours the stretch of categories from `from` to `to` (a warning, a critical spell). */
export interface ChartBand {
  from: string;
  to: string;
  tone: 'warning' | 'destructive';
}

/** LineChartProps describe a line chart: rows, the category key, the series, bands, and how a row reads aloud. */
export interface LineChartProps {
  rows: readonly ChartRow[];
  x: string;
  series: readonly ChartSeries[];
  bands?: readonly ChartBand[];
  /** tick writes a category under the chart (only the first and last are written). */
  tick?: (value: string) => string;
  /** value writes a value on the vertical axis ("12 ms", "3%"). */
  value?: (value: number) => string;
  describe: (row: ChartRow) => string;
  listLabel: string;
  className?: string;
}

const LineChartDrawing = lazy(() => import('./line-chart-drawing'));

/** LineChart draws rows as areas over time (loading Recharts on first use) and lists them for screen readers. */
export function LineChart(props: LineChartProps) {
  const height = cn('h-36 w-full', props.className);
  return (
    <div className="grid">
      <div aria-hidden className={height}>
        <Suspense fallback={<div className={cn(height, 'rounded-md bg-muted/40')} />}>
          <LineChartDrawing {...props} />
        </Suspense>
      </div>
      <ul aria-label={props.listLabel} className="sr-only">
        {props.rows.map((row) => {
          const label = props.describe(row);
          return (
            <li key={String(row[props.x])} aria-label={label}>
              {label}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
