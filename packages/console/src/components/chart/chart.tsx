import { lazy, Suspense } from 'react';
import { cn } from '@/lib/cn';

// The console's one chart: bars per category (a day, an hour) for one or more series, drawn by Recharts. Recharts
// is loaded only when a chart first shows (its own chunk, kept out of the console's first download); meanwhile the
// chart's box keeps its height. Every chart also lists its values for screen readers (and tests): the drawing is
// hidden from them, the list is not.

/** ChartRow is one category's values, by series key, plus the category itself under the chart's `x` key. */
export type ChartRow = Readonly<Record<string, string | number | null>>;

/** ChartSeries is one series of bars: its key in the rows, its name, and its colour (a theme colour). */
export interface ChartSeries {
  key: string;
  label: string;
  tone: 'primary' | 'destructive' | 'muted' | 'warning';
}

/** BarChartProps describe a bar chart: rows, the category key, the series, and how a row reads aloud. */
export interface BarChartProps {
  rows: readonly ChartRow[];
  x: string;
  series: readonly ChartSeries[];
  /** stacked draws the series of a row on top of each other (their sum is the bar's height). */
  stacked?: boolean;
  /** tick writes a category under its bar (only the first and last are written). */
  tick?: (value: string) => string;
  /** describe says a row in words ("2026-11-02: 30"), for the values list and the tooltip. */
  describe: (row: ChartRow) => string;
  /** listLabel names the values list. */
  listLabel: string;
  className?: string;
}

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
