// What the charts are given: rows, series, bands, and how a row reads aloud (chart.tsx and line-chart.tsx draw them).

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

/** ChartBand colours the stretch of categories from `from` to `to` (a warning, a critical spell). */
export interface ChartBand {
  from: string;
  to: string;
  tone: 'warning' | 'destructive';
}

/** LineChartProps describe a line chart: rows, the category key, the series, bands, and how a row reads aloud. */
export interface LineChartProps {
  rows: readonly ChartRow[];
  x: string;
  series: readonly ChartSeries[];
  bands?: readonly ChartBand[];
  /** tick writes a category under the chart (only the first and last are written). */
  tick?: (value: string) => string;
  /** value writes a value on the vertical axis ("12 ms", "3%"). */
  value?: (value: number) => string;
  describe: (row: ChartRow) => string;
  listLabel: string;
  className?: string;
}
