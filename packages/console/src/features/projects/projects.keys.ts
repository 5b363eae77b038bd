// Query keys of projects: the first element is the API path, and nothing is imported.

/** projectKeys are the project queries; `project(id)` matches every query of one project. */
export const projectKeys = {
  list: ['/api/projects'] as const,
  project: (id: string) => [`/api/projects/${id}`] as const,
  members: (id: string) => [`/api/projects/${id}`, 'members'] as const,
  tables: (id: string) => [`/api/projects/${id}`, 'tables'] as const,
  layout: (id: string) => [`/api/projects/${id}`, 'schema'] as const,
  shared: ['/api/shared-tables'] as const,
};
