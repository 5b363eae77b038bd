import { lazy } from 'react';
import { cn } from '@/lib/cn';
import { ChartFrame } from './chart-frame';
import type { LineChartProps } from './chart-types';

// The console's line chart: one or more series over time, drawn by Recharts as areas, optionally over coloured
// bands (a status's stretches of time). Like BarChart it loads Recharts only when it first shows, keeps its height
// meanwhile, and lists its values for screen readers and tests.

export type { ChartBand, LineChartProps } from './chart-types';

const LineChartDrawing = lazy(() => import('./line-chart-drawing'));

/** LineChart draws rows as areas over time (loading Recharts on first use) and lists them for screen readers. */
export function LineChart(props: LineChartProps) {
  return (
    <ChartFrame
      height={cn('h-36 w-full', props.className)}
      rows={props.rows}
      x={props.x}
      describe={props.describe}
      listLabel={props.listLabel}
      drawing={<LineChartDrawing {...props} />}
    />
  );
}
