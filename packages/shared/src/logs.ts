import { z } from 'zod';
import { paginationSchema } from './api.types.js';

// System logs.
// GET /api/logs answers the settings viewer (no `page`: an array, newest first) and the logs page (`page` and
// `limit`: {data, pagination}). Both take the same filters.

/** LOG_LEVELS are the levels a stored entry has, least severe first. */
const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
/** LogLevel is one of LOG_LEVELS. */
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * LOG_SOURCES are where entries come from (the page's Service column): `api` one entry per API request and one
 * per unexpected error, `auth` sign-ups, sign-ins and failed sign-ins, `jobs` background jobs (log retention),
 * `functions` one entry per edge function invocation.
 */
export const LOG_SOURCES = ['api', 'auth', 'jobs', 'functions'] as const;
/** LogSource is one of LOG_SOURCES. */
export type LogSource = (typeof LOG_SOURCES)[number];

/** LOG_LIMITS are the sizes of the two answers of GET /api/logs. */
export const LOG_LIMITS = {
  /** The logs page's default page size. */
  pageSize: 20,
  /** The largest page the logs page may ask for. */
  pageMax: 100,
  /** The settings viewer's entries (the newest ones matching the filters). */
  viewerMax: 500,
  /** The longest search text. */
  searchMax: 200,
} as const;

// A query parameter sent empty (`?level=`) means "not given".
const optionalParam = <S extends z.ZodType>(schema: S) =>
  z.preprocess((value) => (value === '' ? undefined : value), schema.optional());

const LEVEL_FILTERS = ['all', ...LOG_LEVELS, 'warning'] as const;
const levelMessage = `level must be one of ${['all', ...LOG_LEVELS].join(', ')}`;

/** logLevelFilterSchema reads `level`: all (no filter), debug, info, warn (or warning, as the page names it), error. */
const logLevelFilterSchema = optionalParam(
  z
    .preprocess(
      (value) => (typeof value === 'string' ? value.toLowerCase() : value),
      z.enum(LEVEL_FILTERS, { error: levelMessage }),
    )
    .transform((level): LogLevel | undefined => (level === 'all' ? undefined : level === 'warning' ? 'warn' : level)),
);

const logFiltersShape = {
  level: logLevelFilterSchema,
  service: optionalParam(z.enum(LOG_SOURCES, { error: `service must be one of ${LOG_SOURCES.join(', ')}` })),
  search: optionalParam(
    z
      .string({ error: 'search must be text' })
      .max(LOG_LIMITS.searchMax, `search must be at most ${LOG_LIMITS.searchMax} characters`)
      .transform((text) => text.trim() || undefined),
  ),
};

const wholeNumber = (min: number, max: number, message: string) =>
  z.coerce.number({ error: message }).int(message).min(min, message).max(max, message);
const limitParam = (max: number) => wholeNumber(1, max, `limit must be a whole number from 1 to ${max}`);

/** logsViewerQuerySchema is the query of GET /api/logs without `page` (the settings viewer). */
export const logsViewerQuerySchema = z.object({
  ...logFiltersShape,
  limit: optionalParam(limitParam(LOG_LIMITS.viewerMax)).transform((n) => n ?? LOG_LIMITS.viewerMax),
});
/** LogsViewerQuery is a parsed settings-viewer query. */
export type LogsViewerQuery = z.output<typeof logsViewerQuerySchema>;

/** logsPageQuerySchema is the query of GET /api/logs with `page` (the System Logs page). */
export const logsPageQuerySchema = z.object({
  ...logFiltersShape,
  page: wholeNumber(1, Number.MAX_SAFE_INTEGER, 'page must be a whole number of 1 or more'),
  limit: optionalParam(limitParam(LOG_LIMITS.pageMax)).transform((n) => n ?? LOG_LIMITS.pageSize),
});
/** LogsPageQuery is a parsed logs-page query. */
export type LogsPageQuery = z.output<typeof logsPageQuerySchema>;

/** logEntrySchema is one entry of the settings viewer (Settings › Logs). */
export const logEntrySchema = z.object({
  id: z.number(),
  level: z.enum(LOG_LEVELS),
  message: z.string(),
  source: z.string(),
  /** The request's path without its query string; null for entries that are not about a request. */
  path: z.string().nullable(),
  context: z.record(z.string(), z.unknown()),
  timestamp: z.string(),
});
/** LogEntry is one settings-viewer entry. */
export type LogEntry = z.infer<typeof logEntrySchema>;

/** LOG_PAGE_LEVELS are the levels as the logs page names them. */
const LOG_PAGE_LEVELS = ['debug', 'info', 'warning', 'error'] as const;

/** logPageEntrySchema is one row of the System Logs page. */
const logPageEntrySchema = z.object({
  id: z.number(),
  createdAt: z.string(),
  level: z.enum(LOG_PAGE_LEVELS),
  service: z.string(),
  message: z.string(),
});
/** LogPageEntry is one logs-page row. */
export type LogPageEntry = z.infer<typeof logPageEntrySchema>;

/**
 * logsPaginationSchema is the logs page's pagination. A search over a large log counts its matches only up to a
 * limit (10,000): when it has more, `totalItemsCapped` is true, `totalItems` is that limit ("more than"), and
 * `totalPages` counts the pages known to exist so far. The field is absent when the count is exact.
 */
const logsPaginationSchema = paginationSchema.extend({ totalItemsCapped: z.literal(true).optional() });
/** LogsPagination is the logs page's pagination. */
export type LogsPagination = z.infer<typeof logsPaginationSchema>;

/** logsPageSchema is the logs page's answer. */
export const logsPageSchema = z.object({
  data: z.array(logPageEntrySchema),
  pagination: logsPaginationSchema,
});
/** LogsPage is one page of the System Logs page. */
export type LogsPage = z.infer<typeof logsPageSchema>;
