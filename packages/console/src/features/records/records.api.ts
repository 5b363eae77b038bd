import { type RecordRow, recordListSchema, recordRowSchema } from '@basalt/shared';
import { postgrestCode, postgrestError } from '@/features/tables/postgrest-error';
import type { TableDataClient } from '@/features/tables/tables.api';

// The record calls of spec console-core §7, through supabase-js on /rest/v1/<table>. Lists are read a page
// at a time with range() and an exact count, so a table of 100,000 rows costs one page per request.

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

/** fetchRecordsPage reads page `page` (1-based) of `pageSize` records, ordered by id. */
export async function fetchRecordsPage(
  client: TableDataClient,
  table: string,
  { page, pageSize }: { page: number; pageSize: number },
): Promise<RecordsPage> {
  const first = (page - 1) * pageSize;
  const { data, count, error, status } = await client
    .from(table)
    .select('*', { count: 'exact' })
    .order('id', { ascending: true })
    .range(first, first + pageSize - 1);
  if (error) {
    const failure = postgrestError(error, status);
    // A page past the end (records were deleted meanwhile): no rows, and the total to move back with.
    if (postgrestCode(failure) === 'PGRST103') return { rows: [], total: await countRecords(client, table) };
    throw failure;
  }
  return { rows: recordListSchema.parse(data ?? []), total: count ?? data?.length ?? 0 };
}

/** createRecord inserts one record and returns it as stored. */
export async function createRecord(client: TableDataClient, table: string, payload: RecordPayload): Promise<RecordRow> {
  const { data, error, status } = await client.from(table).insert(payload).select();
  if (error) throw postgrestError(error, status);
  const row = data?.[0];
  if (!row) throw new Error(`Failed to create record in ${table}: No data returned`);
  return recordRowSchema.parse(row);
}

/** updateRecord changes the given columns of one record and returns it as stored. */
export async function updateRecord(
  client: TableDataClient,
  table: string,
  id: number,
  payload: RecordPayload,
): Promise<RecordRow> {
  const { data, error, status } = await client.from(table).update(payload).eq('id', id).select();
  if (error) throw postgrestError(error, status);
  const row = data?.[0];
  if (!row) throw new Error(`Failed to update record in ${table}: No data returned`);
  return recordRowSchema.parse(row);
}

/** deleteRecord deletes one record. */
export async function deleteRecord(client: TableDataClient, table: string, id: number): Promise<void> {
  const { error, status } = await client.from(table).delete().eq('id', id);
  if (error) throw postgrestError(error, status);
}
