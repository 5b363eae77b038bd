import { lazy, Suspense } from 'react';
import { cn } from '@/lib/cn';
import type { BarChartProps } from './chart-types';

// The console's one chart: bars per category (a day, an hour) for one or more series, drawn by Recharts. Recharts
// is loaded only when a chart first shows (its own chunk, kept out of the console's first download); meanwhile the
// chart's box keeps its height. Every chart also lists its values for screen readers (and tests): the drawing is
// hidden from them, the list is not.

export type { BarChartProps, ChartRow, ChartSeries } from './chart-types';

const BarChartDrawing = lazy(() => import('./bar-chart-drawing'));

/** BarChart draws rows as bars (loading Recharts on first use) and lists them for screen readers. */
export function BarChart(props: BarChartProps) {
  const height = cn('h-28 w-full', props.className);
  return (
    <div className="grid">
      <div aria-hidden className={height}>
        <Suspense fallback={<div className={cn(height, 'rounded-md bg-muted/40')} />}>
          <BarChartDrawing {...props} />
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
