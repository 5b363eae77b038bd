// The settings log viewer's filters and export: a level filter,
// a case-insensitive search over message, source, path and context, and a JSON file named by date that holds
// exactly the entries shown.

/** LEVEL_FILTERS are the viewer's level choices; all shows every level. */
export const LEVEL_FILTERS = ['all', 'info', 'warn', 'error', 'debug'] as const;
export type LevelFilter = (typeof LEVEL_FILTERS)[number];

/** FilterableLog is the part of a log entry the filters read. */
export interface FilterableLog {
  level: string;
  message: string;
  source?: string | null;
  path?: string | null;
  context?: unknown;
}

/** LogFilters are the viewer's current filters. */
export interface LogFilters {
  level: LevelFilter;
  search: string;
}

function searchableText(entry: FilterableLog): string {
  const context = entry.context === null || entry.context === undefined ? '' : JSON.stringify(entry.context);
  return [entry.message, entry.source ?? '', entry.path ?? '', context].join('\n').toLowerCase();
}

/** filterLogs keeps the entries of the chosen level whose message, source, path or context contain the search. */
export function filterLogs<T extends FilterableLog>(entries: readonly T[], { level, search }: LogFilters): T[] {
  const needle = search.trim().toLowerCase();
  return entries.filter(
    (entry) => (level === 'all' || entry.level === level) && (!needle || searchableText(entry).includes(needle)),
  );
}

/** logExportFileName names an export by the local date: basalt-logs-2026-11-22.json. */
export function logExportFileName(now: Date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `basalt-logs-${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}.json`;
}
