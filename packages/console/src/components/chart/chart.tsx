import { lazy } from 'react';
import { cn } from '@/lib/cn';
import { ChartFrame } from './chart-frame';
import type { BarChartProps } from './chart-types';

// The console's one chart: bars per category (a day, an hour) for one or more series, drawn by Recharts. Recharts
// is loaded only when a chart first shows (its own chunk, kept out of the console's first download); meanwhile the
// chart's box keeps its height. Every chart also lists its values for screen readers (and tests): the drawing is
// hidden from them, the list is not.

export type { BarChartProps, ChartRow, ChartSeries } from './chart-types';

const BarChartDrawing = lazy(() => import('./bar-chart-drawing'));

/** BarChart draws rows as bars (loading Recharts on first use) and lists them for screen readers. */
export function BarChart(props: BarChartProps) {
  return (
    <ChartFrame
      height={cn('h-28 w-full', props.className)}
      rows={props.rows}
      x={props.x}
      describe={props.describe}
      listLabel={props.listLabel}
      drawing={<BarChartDrawing {...props} />}
    />
  );
}
