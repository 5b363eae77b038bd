// The history and checkpoint queries' keys. Imports nothing: the page sizes come from the queries.

/**
 * historyKeys are the history queries; `ofTable` matches every page, and the timeline, of one table (of a SQL
 * function: the negative of its id).
 */
export const historyKeys = {
  ofTable: (tableId: number) => ['/api/history', { tableId }] as const,
  page: (tableId: number, before: number | null, limit: number) =>
    ['/api/history', { tableId, before, limit }] as const,
  timeline: (tableId: number, limit: number) => ['/api/history', { tableId, limit }, 'timeline'] as const,
  /** functions is the latest entries of every SQL function (the Recently deleted list reads it). */
  functions: ['/api/history', { of: 'functions' }] as const,
};

/** checkpointKeys are the checkpoint queries. */
export const checkpointKeys = {
  ofTable: (tableId: number) => ['/api/checkpoints', { tableId }] as const,
};
