// The query keys of edge functions (STYLE.md: key files import nothing). The first element is the API path.

/** functionKeys name every edge-function query. */
export const functionKeys = {
  list: ['/api/edge-functions'] as const,
  versions: (id: number) => [`/api/edge-functions/${id}/versions`] as const,
  invocations: (id: number) => [`/api/edge-functions/${id}/invocations`, { limit: 50 }] as const,
  stats: (id: number) => [`/api/edge-functions/${id}/stats`, { hours: 24 }] as const,
  /** all is the prefix of one function's queries. */
  of: (id: number) => [`/api/edge-functions/${id}`] as const,
};
