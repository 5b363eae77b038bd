import { type RecordRow, recordListSchema, recordRowSchema } from '@basalt/shared';
import { z } from 'zod';
import { postgrestError } from '@/features/tables/postgrest-error';
import type { TableDataClient } from '@/features/tables/tables.api';
import { apiJson, apiRequest, readJson } from '@/lib/api';

// The record calls of the table page, by table id through /api/tables/{id}/records, so that a table shared with
// the caller through a project works like its own (with what its role allows). Lists are read a page at a time
// with the total, so a table of 100,000 rows costs one page per request. The dashboard's count of the caller's
// own tables still goes through supabase-js on /rest/v1/<table>.

/** RecordsPage is one page of a table's records, oldest first, and how many records the table has. */
export interface RecordsPage {
  rows: RecordRow[];
  total: number;
}

/** RecordPayload is the column values sent to create or change a record. */
export type RecordPayload = Record<string, unknown>;

/** countRecords counts a table's records without reading them (HEAD with an exact count). */
export async function countRecords(client: TableDataClient, table: string): Promise<number> {
  const { count, error, status } = await client.from(table).select('*', { count: 'exact', head: true });
  if (error) throw postgrestError(error, status);
  return count ?? 0;
}

/** TableRef names the table a record call is about: records are reached by the table's id. */
export interface TableRef {
  id: number;
  name: string;
}

const recordsPageSchema = z.object({ data: recordListSchema, total: z.number() });

/** RecordsSort orders the grid by one column (then by id), sorted by the server. */
export interface RecordsSort {
  column: string;
  direction: 'asc' | 'desc';
}

/**
 * fetchRecordsPage reads page `page` (1-based) of `pageSize` records, ordered by id or by `sort`, through
 * GET /api/tables/{id}/records: the caller's own tables and those shared with it through a project alike. The
 * server sorts and pages; its total is the table's kept row count, so no page turn counts the table.
 */
export async function fetchRecordsPage(
  table: TableRef,
  {
    page,
    pageSize,
    sort = null,
    filters = [],
  }: { page: number; pageSize: number; sort?: RecordsSort | null; filters?: FilterParams },
  signal?: AbortSignal,
): Promise<RecordsPage> {
  const query = new URLSearchParams({
    limit: String(pageSize),
    offset: String((page - 1) * pageSize),
    orderBy: sort?.column ?? 'id',
    order: sort?.direction ?? 'asc',
  });
  for (const [column, condition] of filters) query.append(column, condition);
  const { data, total } = await apiJson(
    recordsPageSchema,
    'GET',
    `/api/tables/${table.id}/records?${query}`,
    undefined,
    {
      signal,
    },
  );
  return { rows: data, total };
}

/** FilterParams are the grid's filters as the server reads them: `[column, "op.value"]` pairs (records-filters.ts). */
export type FilterParams = ReadonlyArray<readonly [string, string]>;

/** createRecords inserts 1 to 1000 records in one transaction (all or none) and returns them as stored. */
export async function createRecords(table: TableRef, rows: RecordPayload[]): Promise<RecordRow[]> {
  return apiJson(recordListSchema, 'POST', `/api/tables/${table.id}/records`, rows);
}

const bulkDeleteSchema = z.object({ deleted: z.number(), ids: z.array(z.number()) });

/** deleteRecordsById deletes up to 1000 records in one transaction; it returns the ids that were deleted. */
export async function deleteRecordsById(table: TableRef, ids: readonly number[]): Promise<number[]> {
  return (await apiJson(bulkDeleteSchema, 'DELETE', `/api/tables/${table.id}/records`, { ids })).ids;
}

/** exportRecordsCsv downloads every record the filters select as CSV (the server streams it in id order). */
export async function exportRecordsCsv(table: TableRef, filters: FilterParams, signal?: AbortSignal): Promise<Blob> {
  const query = new URLSearchParams(filters.map(([column, condition]) => [column, condition]));
  const suffix = query.toString() ? `?${query}` : '';
  const response = await apiRequest('GET', `/api/tables/${table.id}/records/export${suffix}`, undefined, {
    signal,
    headers: { Accept: 'text/csv' },
  });
  return response.blob();
}

/** createRecord inserts one record and returns it as stored. */
export async function createRecord(table: TableRef, payload: RecordPayload): Promise<RecordRow> {
  const response = await apiRequest('POST', `/api/tables/${table.id}/records`, payload);
  const row = recordRowSchema.safeParse(await readJson(response));
  if (!row.success) throw new Error(`Failed to create record in ${table.name}: No data returned`);
  return row.data;
}

/** updateRecord changes the given columns of one record and returns it as stored. */
export async function updateRecord(table: TableRef, id: number, payload: RecordPayload): Promise<RecordRow> {
  const response = await apiRequest('PATCH', `/api/tables/${table.id}/records/${id}`, payload);
  const row = recordRowSchema.safeParse(await readJson(response));
  if (!row.success) throw new Error(`Failed to update record in ${table.name}: No data returned`);
  return row.data;
}

/** fetchRecord reads one record by id (404 when the table has no such record). */
export async function fetchRecord(table: TableRef, id: number, signal?: AbortSignal): Promise<RecordRow> {
  return apiJson(recordRowSchema, 'GET', `/api/tables/${table.id}/records/${id}`, undefined, { signal });
}

/** deleteRecord deletes one record. */
export async function deleteRecord(table: TableRef, id: number): Promise<void> {
  await apiRequest('DELETE', `/api/tables/${table.id}/records/${id}`);
}
