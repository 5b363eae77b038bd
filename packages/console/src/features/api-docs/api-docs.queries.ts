import { tableListSchema } from '@basalt/shared';
import { useQuery } from '@tanstack/react-query';
import { tableKeys } from '@/features/tables/tables.keys';
import { apiRequest, jsonQuery } from '@/lib/api';
import { isClientError } from '@/lib/api-errors';
import { openApiKeys } from './api-docs.keys';
import type { OpenApiDocument } from './openapi-document';
import { parseOpenApiDocument } from './openapi-reading';

// The docs pages' data: the account's tables from GET /api/tables (cached for 30 s, retried once) and the OpenAPI document the server generates from them.

// the table list is cached for 30 s with one retry.
const DOCS_STALE_MS = 30_000;
const retryOnce = (failures: number, error: unknown) => !isClientError(error) && failures < 1;

/** useDocsTablesQuery lists the account's tables for the docs pages (GET /api/tables). */
export function useDocsTablesQuery() {
  return useQuery({
    queryKey: tableKeys.apiList,
    queryFn: jsonQuery(tableListSchema),
    staleTime: DOCS_STALE_MS,
    retry: retryOnce,
  });
}

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
