import { Area, AreaChart, ReferenceArea, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { ChartTone } from './chart-colours';
import { useToneColours } from './chart-colours';
import { ChartTooltipBody } from './chart-tooltip';
import type { LineChartProps } from './chart-types';

// The drawing of a LineChart, in a chunk of its own with Recharts (line-chart.tsx loads it lazily).

/** LineChartDrawing is the Recharts drawing of a LineChart. */
export default function LineChartDrawing({ rows, x, series, bands = [], tick, value, describe }: LineChartProps) {
  const colours = useToneColours();
  const first = rows[0]?.[x];
  const last = rows.at(-1)?.[x];
  const tone = (t: ChartTone) => colours[t];
  // A line needs two neighbouring points; a series of scattered points shows them as dots.
  const sparse = (key: string) => rows.filter((row) => row[key] !== null && row[key] !== undefined).length <= 12;
  return (
    <ResponsiveContainer width="100%" height="100%" initialDimension={{ width: 320, height: 144 }}>
      <AreaChart data={[...rows]} margin={{ top: 6, right: 4, bottom: 0, left: 0 }}>
        {bands.map((band) => (
          <ReferenceArea
            key={`${band.from}-${band.to}`}
            x1={band.from}
            x2={band.to}
            fill={tone(band.tone)}
            fillOpacity={0.18}
            stroke="none"
            ifOverflow="extendDomain"
          />
        ))}
        <XAxis
          dataKey={x}
          interval="preserveStartEnd"
          ticks={first === undefined || last === undefined ? [] : [String(first), String(last)]}
          tickFormatter={(v: string) => (tick ? tick(v) : v)}
          tick={{ fill: colours.axis, fontSize: 11 }}
          axisLine={{ stroke: colours.border }}
          tickLine={false}
          height={18}
        />
        <YAxis
          width={48}
          tickCount={3}
          allowDecimals={false}
          tickFormatter={(v: number) => (value ? value(v) : String(v))}
          tick={{ fill: colours.axis, fontSize: 11 }}
          axisLine={false}
          tickLine={false}
        />
        <Tooltip
          cursor={{ stroke: colours.border }}
          content={<ChartTooltipBody describe={describe} />}
          isAnimationActive={false}
        />
        {series.map((s) => (
          <Area
            key={s.key}
            dataKey={s.key}
            name={s.label}
            type="monotone"
            stroke={tone(s.tone)}
            strokeWidth={1.5}
            fill={tone(s.tone)}
            fillOpacity={0.12}
            connectNulls={false}
            dot={sparse(s.key) ? { r: 2.5, fill: tone(s.tone), strokeWidth: 0 } : false}
            isAnimationActive={false}
          />
        ))}
      </AreaChart>
    </ResponsiveContainer>
  );
}
