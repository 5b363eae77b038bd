import {
  type CreateTableRequest,
  type TableChangePreview,
  type TableResponse,
  tableChangePreviewSchema,
  tableListSchema,
  tableResponseSchema,
  type UpdateTableInput,
} from '@basalt/shared';
import type { SupabaseClient } from '@supabase/supabase-js';
import { apiJson } from '@/lib/api';
import { postgrestError } from './postgrest-error';

// The table calls Lists, creates and drops go through supabase-js on
// /rest/v1/tables, as the spec describes; one table and schema changes use the console API (/api/tables).

/** TableDataClient is the part of supabase-js the table and record calls use. */
export type TableDataClient = Pick<SupabaseClient, 'from' | 'auth'>;

/** AuthRequiredError is a create attempt without a session. */
export class AuthRequiredError extends Error {
  constructor() {
    super('Authentication required');
    this.name = 'AuthRequiredError';
  }
}

/** fetchTables lists the signed-in account's tables, newest first. */
export async function fetchTables(client: TableDataClient): Promise<TableResponse[]> {
  const { data, error, status } = await client.from('tables').select('*');
  if (error) throw postgrestError(error, status);
  return tableListSchema.parse(data ?? []);
}

/** createTable checks for a session, inserts the table and reads it back. */
export async function createTable(client: TableDataClient, input: CreateTableRequest): Promise<TableResponse> {
  const { data: session } = await client.auth.getSession();
  if (!session.session) throw new AuthRequiredError();
  const { name, description, schema } = input;
  const { data, error, status } = await client.from('tables').insert({ name, description, schema }).select().single();
  if (error) throw postgrestError(error, status);
  if (!data) throw new Error('Failed to create table: No data returned');
  return tableResponseSchema.parse(data);
}

/** deleteTable drops a table and all its data. */
export async function deleteTable(client: TableDataClient, id: number): Promise<void> {
  const { error, status } = await client.from('tables').delete().eq('id', id);
  if (error) throw postgrestError(error, status);
}

/** fetchTable reads one table (GET /api/tables/:id). */
export function fetchTable(id: number, signal?: AbortSignal): Promise<TableResponse> {
  return apiJson(tableResponseSchema, 'GET', `/api/tables/${id}`, undefined, { signal });
}

/** updateTable renames, re-describes or changes the schema of a table (PATCH /api/tables/:id). */
export function updateTable(id: number, change: UpdateTableInput): Promise<TableResponse> {
  return apiJson(tableResponseSchema, 'PATCH', `/api/tables/${id}`, change);
}

/** previewTableChange asks what a schema change would do and whether the rows refuse it; nothing changes. */
export function previewTableChange(
  id: number,
  change: Pick<UpdateTableInput, 'schema' | 'renames'>,
  signal?: AbortSignal,
): Promise<TableChangePreview> {
  return apiJson(tableChangePreviewSchema, 'POST', `/api/tables/${id}/schema/preview`, change, { signal });
}
