// The log queries' keys. Imports nothing: the page size comes from the queries.

/** logKeys are the log queries; `all` matches both shapes. */
export const logKeys = {
  all: ['/api/logs'] as const,
  recent: ['/api/logs'] as const,
  page: (page: number, limit: number, filters: { level?: string; search?: string } = {}) =>
    ['/api/logs', { page, limit, ...filters }] as const,
};
