import { lazy, Suspense } from 'react';
import { cn } from '@/lib/cn';
import type { LineChartProps } from './chart-types';

// The console's line chart: one or more series over time, drawn by Recharts as areas, optionally over coloured
// bands (a status's stretches of time). Like BarChart it loads Recharts only when it first shows, keeps its height
// meanwhile, and lists its values for screen readers and tests.

export type { ChartBand, LineChartProps } from './chart-types';

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
