import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api';
import { isClientError } from '@/lib/api-errors';
import { openApiKeys } from './api-docs.keys';
import type { OpenApiDocument } from './openapi-document';
import { parseOpenApiDocument, tableEndpoints } from './openapi-reading';

// The docs pages' data: the OpenAPI document the server generates from the account's tables (their list, GET
// /api/tables, is tables.queries.ts's useApiTablesQuery).

const retryOnce = (failures: number, error: unknown) => !isClientError(error) && failures < 1;

/** OpenApiFile is the document as the server sent it (for the download) and as the reference reads it. */
export interface OpenApiFile {
  text: string;
  document: OpenApiDocument;
}

/** fetchOpenApiFile downloads GET /api/openapi.json and checks that it is an OpenAPI 3 document. */
export async function fetchOpenApiFile(signal?: AbortSignal): Promise<OpenApiFile> {
  const response = await apiRequest('GET', openApiKeys.document[0], undefined, { signal });
  const text = await response.text();
  return { text, document: parseOpenApiDocument(JSON.parse(text)) };
}

/** TYPES_FILE_NAME is the name the generated supabase-js types download as. */
export const TYPES_FILE_NAME = 'database.types.ts';

/** fetchTypesFile downloads GET /api/types.ts: the `Database` type for `createClient<Database>()`. */
export async function fetchTypesFile(): Promise<string> {
  const response = await apiRequest('GET', '/api/types.ts');
  return response.text();
}

/** useOpenApiQuery loads the caller's OpenAPI document. */
export function useOpenApiQuery() {
  return useQuery({
    queryKey: openApiKeys.document,
    queryFn: ({ signal }) => fetchOpenApiFile(signal),
    // Generated from the tables, it changes with them: read it again whenever the reference opens.
    staleTime: 0,
    retry: retryOnce,
  });
}

/** useTableEndpointsQuery lists one table's record API endpoints from the caller's OpenAPI document. */
export function useTableEndpointsQuery(table: string) {
  return useQuery({
    queryKey: openApiKeys.document,
    queryFn: ({ signal }) => fetchOpenApiFile(signal),
    staleTime: 0,
    retry: retryOnce,
    select: (file: OpenApiFile) => tableEndpoints(file.document, table),
  });
}
