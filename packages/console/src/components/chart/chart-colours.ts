import { useMemo } from 'react';
import { useTheme } from '@/lib/theme-provider';

// The theme's colours for the charts' drawings: SVG attributes take no CSS variables, so they are read from the
// page once per theme. Imported only by the lazily loaded drawings.

/** ChartTone is a series' or band's colour, by the theme's meaning. */
export type ChartTone = 'primary' | 'destructive' | 'muted' | 'warning';

const VARIABLE: Record<ChartTone, string> = {
  primary: '--primary',
  destructive: '--destructive',
  muted: '--muted-foreground',
  warning: '--warning',
};

/** useToneColours reads the theme's colours (again when the theme changes). */
export function useToneColours(): Record<ChartTone | 'axis' | 'card' | 'border', string> {
  const { resolvedTheme } = useTheme();
  // biome-ignore lint/correctness/useExhaustiveDependencies: the colours change with the theme's class.
  return useMemo(() => {
    const style = getComputedStyle(document.documentElement);
    const read = (name: string, fallback: string) => style.getPropertyValue(name).trim() || fallback;
    return {
      primary: read(VARIABLE.primary, '#10b981'),
      destructive: read(VARIABLE.destructive, '#dc2626'),
      muted: read(VARIABLE.muted, '#71717a'),
      warning: read(VARIABLE.warning, '#f59e0b'),
      axis: read('--muted-foreground', '#71717a'),
      card: read('--popover', '#ffffff'),
      border: read('--border', '#e4e4e7'),
    };
  }, [resolvedTheme]);
}
