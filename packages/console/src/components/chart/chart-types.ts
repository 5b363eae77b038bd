// What a bar chart is given: its rows, its series and how a row reads aloud (chart.tsx draws it).

/** ChartRow is one category's values, by series key, plus the category itself under the chart's `x` key. */
export type ChartRow = Readonly<Record<string, string | number | null>>;

/** ChartSeries is one series of bars: its key in the rows, its name, and its colour (a theme colour). */
export interface ChartSeries {
  key: string;
  label: string;
  tone: 'primary' | 'destructive' | 'muted';
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
