import type { ChartRow } from './chart-types';

// The tooltip of the console's charts: the hovered row, said in words as the values list says it.

/** ChartTooltipBody is Recharts' tooltip content for a row. */
export function ChartTooltipBody({
  active,
  payload,
  describe,
}: {
  active?: boolean;
  payload?: Array<{ payload?: ChartRow }>;
  describe: (row: ChartRow) => string;
}) {
  const row = payload?.[0]?.payload;
  if (!active || !row) return null;
  return (
    <div className="rounded-md border bg-popover px-2 py-1 text-xs text-popover-foreground shadow-sm">
      {describe(row)}
    </div>
  );
}
