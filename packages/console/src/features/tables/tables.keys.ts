// The table queries' keys. A keys file imports nothing, so any feature may name another's queries without
// importing its hooks; query-refresh.ts names them all to say what a write refreshes.

/**
 * tableKeys are the table queries; the first element is the path. `list` is the data API's list, `apiList` the
 * docs pages' (GET /api/tables), `schemaPreview` a schema editor check of one draft against one table version.
 */
export const tableKeys = {
  list: ['/rest/v1/tables'] as const,
  apiList: ['/api/tables'] as const,
  detail: (id: number) => [`/api/tables/${id}`] as const,
  schemaPreview: (id: number, change: string | null, version: string) =>
    [`/api/tables/${id}/schema/preview`, { change, version }] as const,
};
