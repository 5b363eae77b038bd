import type { LogEntry, LogLevel, LogPageEntry, LogsPage, LogsPageQuery, LogsViewerQuery } from '@basalt/shared';
import type { Db } from '../../db/database.js';
import type { Actor } from '../../lib/actor/actor.js';
import { countLogMatches, type LogQuery, type LogRow, listLogRows, narrowLogSearch } from './logs.store.js';

/**
 * logQueryFor scopes a query to what the caller may see: an instance administrator sees every entry, any other
 * account only the entries of its own requests and sign-ins.
 */
function logQueryFor(actor: Actor, filters: Pick<LogQuery, 'level' | 'service' | 'search'>): LogQuery {
  return actor.admin ? { ...filters } : { ...filters, accountId: actor.accountId };
}

function contextOf(row: LogRow): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(row.context);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** toLogEntry renders a stored row as the settings viewer's entry. */
function toLogEntry(row: LogRow): LogEntry {
  return {
    id: Number(row.id),
    level: row.level as LogLevel,
    message: row.message,
    source: row.source,
    path: row.path,
    context: contextOf(row),
    timestamp: row.created_at,
  };
}

/** toLogPageEntry renders a stored row as the logs page's row; the page calls warn "warning". */
function toLogPageEntry(row: LogRow): LogPageEntry {
  return {
    id: Number(row.id),
    createdAt: row.created_at,
    level: row.level === 'warn' ? 'warning' : (row.level as LogPageEntry['level']),
    service: row.source,
    message: row.message,
  };
}

/** listRecentLogs returns the newest entries the caller may see that match the filters (the settings viewer). */
export async function listRecentLogs(
  db: Db,
  actor: Actor,
  { limit, ...filters }: LogsViewerQuery,
): Promise<LogEntry[]> {
  const query = await narrowLogSearch(db, logQueryFor(actor, filters));
  const rows = await listLogRows(db.kysely, query, { limit, offset: 0 });
  return rows.map(toLogEntry);
}

/**
 * readLogPage reads the entries of a page, newest first, from a query of `totalItems` entries: a page in the
 * older half from the oldest end, so the last page costs what the first does.
 */
async function readLogPage(
  db: Db,
  query: LogQuery,
  { totalItems, offset, limit }: { totalItems: number; offset: number; limit: number },
): Promise<LogRow[]> {
  if (offset >= totalItems) return [];
  if (offset <= totalItems / 2) return listLogRows(db.kysely, query, { limit, offset });
  const end = Math.min(offset + limit, totalItems);
  const oldestFirst = await listLogRows(db.kysely, query, {
    limit: end - offset,
    offset: totalItems - end,
    fromOldest: true,
  });
  return oldestFirst.reverse();
}

/**
 * listLogsPage returns one page (1-based) of the entries the caller may see, newest first, with the console's
 * pagination. A page in the older half is read from the oldest end, so the last page costs what the first does.
 * A search with more matches than its count reaches (logs.store.ts: countLogMatches) says so with
 * `totalItemsCapped`: there are more than `totalItems`, and `totalPages` are the pages known to exist so far.
 */
export async function listLogsPage(
  db: Db,
  actor: Actor,
  { page, limit, ...filters }: LogsPageQuery,
): Promise<LogsPage> {
  const query = await narrowLogSearch(db, logQueryFor(actor, filters));
  const { count: totalItems, exact } = await countLogMatches(db, query);
  const offset = (page - 1) * limit;
  if (!exact) {
    // The end is unknown: the page is read newest first, with one entry more to tell whether another page follows.
    const rows = await listLogRows(db.kysely, query, { limit: limit + 1, offset });
    const known = Math.max(totalItems + 1, offset + rows.length);
    return {
      data: rows.slice(0, limit).map(toLogPageEntry),
      pagination: {
        totalItems,
        totalPages: Math.ceil(known / limit),
        currentPage: page,
        hasNext: rows.length > limit,
        hasPrevious: page > 1,
        totalItemsCapped: true,
      },
    };
  }
  const rows = await readLogPage(db, query, { totalItems, offset, limit });
  const totalPages = Math.max(1, Math.ceil(totalItems / limit));
  return {
    data: rows.map(toLogPageEntry),
    pagination: { totalItems, totalPages, currentPage: page, hasNext: page < totalPages, hasPrevious: page > 1 },
  };
}
