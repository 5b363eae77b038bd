// The record queries' keys. Imports nothing. The table page reads a table's records by its id
// (/api/tables/{id}/records: a table shared through a project may have the name of one of the caller's own);
// the dashboard counts the caller's own tables by name through the data API (/rest/v1/<name>).

const DATA_API_PREFIX = '/rest/v1/';
const RECORDS_BY_ID = /^\/api\/tables\/\d+\/records/;

/** recordKeys are the record queries: `table(id)` matches every page of one table, `count(name)` its count. */
export const recordKeys = {
  table: (tableId: number) => [`/api/tables/${tableId}/records`] as const,
  page: (
    tableId: number,
    page: number,
    pageSize: number,
    sort: { column: string; direction: string } | null = null,
    filters: ReadonlyArray<readonly [string, string]> = [],
  ) => [`/api/tables/${tableId}/records`, { page, pageSize, sort, filters }] as const,
  count: (table: string) => [`${DATA_API_PREFIX}${table}`, { count: 'exact' }] as const,
};

/** isRecordsKey says whether a key reads records: any table's pages or counts, and the data API's table list. */
export function isRecordsKey(key: readonly unknown[]): boolean {
  return typeof key[0] === 'string' && (key[0].startsWith(DATA_API_PREFIX) || RECORDS_BY_ID.test(key[0]));
}
