import { useMemo } from 'react';
import { Bar, BarChart as Chart, ResponsiveContainer, Tooltip, XAxis } from 'recharts';
import { useTheme } from '@/lib/theme-provider';
import type { BarChartProps, ChartRow, ChartSeries } from './chart-types';

// The drawing of a BarChart, in a chunk of its own with Recharts (chart.tsx loads it lazily). SVG attributes take
// no CSS variables, so the theme's colours are read from the page once per theme.

const VARIABLE: Record<ChartSeries['tone'], string> = {
  primary: '--primary',
  destructive: '--destructive',
  muted: '--muted-foreground',
};

function useToneColours(): Record<ChartSeries['tone'] | 'axis' | 'card' | 'border', string> {
  const { resolvedTheme } = useTheme();
  // biome-ignore lint/correctness/useExhaustiveDependencies: the colours change with the theme's class.
  return useMemo(() => {
    const style = getComputedStyle(document.documentElement);
    const read = (name: string, fallback: string) => style.getPropertyValue(name).trim() || fallback;
    return {
      primary: read(VARIABLE.primary, '#10b981'),
      destructive: read(VARIABLE.destructive, '#dc2626'),
      muted: read(VARIABLE.muted, '#71717a'),
      axis: read('--muted-foreground', '#71717a'),
      card: read('--popover', '#ffffff'),
      border: read('--border', '#e4e4e7'),
    };
  }, [resolvedTheme]);
}

function TooltipBody({
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

/** BarChartDrawing is the Recharts drawing of a BarChart. */
export default function BarChartDrawing({ rows, x, series, stacked = false, tick, describe }: BarChartProps) {
  const colours = useToneColours();
  const first = rows[0]?.[x];
  const last = rows.at(-1)?.[x];
  return (
    <ResponsiveContainer width="100%" height="100%" initialDimension={{ width: 320, height: 112 }}>
      <Chart data={[...rows]} margin={{ top: 4, right: 0, bottom: 0, left: 0 }} barCategoryGap="15%">
        <XAxis
          dataKey={x}
          interval="preserveStartEnd"
          ticks={first === undefined || last === undefined ? [] : [String(first), String(last)]}
          tickFormatter={(value: string) => (tick ? tick(value) : value)}
          tick={{ fill: colours.axis, fontSize: 11 }}
          axisLine={{ stroke: colours.border }}
          tickLine={false}
          height={18}
        />
        <Tooltip
          cursor={{ fill: colours.border, opacity: 0.5 }}
          content={<TooltipBody describe={describe} />}
          isAnimationActive={false}
        />
        {series.map((s) => (
          <Bar
            key={s.key}
            dataKey={s.key}
            name={s.label}
            stackId={stacked ? 'stack' : undefined}
            fill={colours[s.tone]}
            fillOpacity={s.tone === 'primary' ? 0.75 : 1}
            radius={stacked ? 0 : [2, 2, 0, 0]}
            minPointSize={s.tone === 'primary' ? 2 : 0}
            isAnimationActive={false}
          />
        ))}
      </Chart>
    </ResponsiveContainer>
  );
}
