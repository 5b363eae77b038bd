import { type ReactNode, Suspense } from 'react';
import { cn } from '@/lib/cn';
import type { ChartRow } from './chart-types';

/** ChartFrameProps are what every chart's frame needs: its height, its rows and how a row reads aloud. */
interface ChartFrameProps {
  /** height is the drawing's box (kept while Recharts loads). */
  height: string;
  rows: readonly ChartRow[];
  x: string;
  describe: (row: ChartRow) => string;
  listLabel: string;
  /** drawing is the lazily loaded Recharts drawing. */
  drawing: ReactNode;
}

/**
 * ChartFrame holds a chart's drawing (hidden from screen readers, its box kept while Recharts loads) and the list
 * of its values that screen readers (and tests) read instead.
 */
export function ChartFrame({ height, rows, x, describe, listLabel, drawing }: ChartFrameProps) {
  return (
    <div className="grid">
      <div aria-hidden className={height}>
        <Suspense fallback={<div className={cn(height, 'rounded-md bg-muted/40')} />}>{drawing}</Suspense>
      </div>
      <ul aria-label={listLabel} className="sr-only">
        {rows.map((row) => {
          const label = describe(row);
          return (
            <li key={String(row[x])} aria-label={label}>
              {label}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
