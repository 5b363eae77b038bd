import { Bar, BarChart as Chart, ResponsiveContainer, Tooltip, XAxis } from 'recharts';
import { useToneColours } from './chart-colours';
import { ChartTooltipBody } from './chart-tooltip';
import type { BarChartProps } from './chart-types';

// The drawing of a BarChart, in a chunk of its own with Recharts (chart.tsx loads it lazily).

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
          content={<ChartTooltipBody describe={describe} />}
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
