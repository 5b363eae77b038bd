// The database health query's key. Imports nothing.

/** healthKeys are the health queries. */
export const healthKeys = {
  database: ['/api/health/database'] as const,
};
