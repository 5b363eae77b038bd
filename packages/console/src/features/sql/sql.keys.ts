// SQL Execution's query keys. Imports nothing.

/** sqlKeys are the SQL Execution page's queries: [path, params?]. */
export const sqlKeys = {
  projects: ['/api/projects'] as const,
  files: (projectId: string) => [`/api/projects/${projectId}/files`, { type: 'sql' }] as const,
  connections: (projectId: string) => [`/api/projects/${projectId}/database-connections`] as const,
  tables: (projectId: string, connectionId: number) =>
    [`/api/projects/${projectId}/database-connections/${connectionId}/tables`] as const,
  history: (projectId: string) => [`/api/projects/${projectId}/query-history`] as const,
};
