import {
  type CreateConnectionInput,
  connectionTablesSchema,
  databaseConnectionSchema,
  type ExecuteDirectSqlInput,
  type ExecuteSqlFileInput,
  queryHistoryEntrySchema,
  SQL_LIMITS,
  type SqlExecutionResult,
  sqlExecutionResultSchema,
  storedFileSchema,
} from '@basalt/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { z } from 'zod';
import { apiJson, jsonQuery } from '@/lib/api';
import { errorMessage } from '@/lib/api-errors';
import { showToast } from '@/lib/toast';
import { sqlKeys } from './sql.keys';

// SQL Execution's calls: GET /api/projects, GET …/files?type=sql, GET …/database-connections, POST
// …/files/upload (multipart), POST …/files/execute-sql, POST …/execute-direct-sql, the query history and the
// tables of a connection for the editor's completion.

const FALLBACK = 'Something went wrong. Please try again.';
// A run may take its whole timeout; the request waits that long and a little more for the answer.
const RUN_MARGIN_MS = 15_000;

const projectListSchema = z.array(z.object({ id: z.string(), name: z.string() }));

// A load failure shows its toast once per failure.
function useLoadFailureToast(error: unknown, title: string) {
  useEffect(() => {
    if (error) showToast({ title, description: errorMessage(error, FALLBACK), variant: 'destructive' });
  }, [error, title]);
}

/** useProjectsQuery lists the projects the user belongs to. */
export function useProjectsQuery() {
  const query = useQuery({ queryKey: sqlKeys.projects, queryFn: jsonQuery(projectListSchema) });
  useLoadFailureToast(query.error, 'Failed to fetch projects');
  return query;
}

/** useSqlFilesQuery lists a project's SQL files. */
export function useSqlFilesQuery(projectId: string | null) {
  const query = useQuery({
    queryKey: sqlKeys.files(projectId ?? ''),
    queryFn: jsonQuery(z.array(storedFileSchema)),
    enabled: Boolean(projectId),
  });
  useLoadFailureToast(query.error, 'Failed to fetch SQL files');
  return query;
}

/** useConnectionsQuery lists a project's database connections. */
export function useConnectionsQuery(projectId: string | null) {
  const query = useQuery({
    queryKey: sqlKeys.connections(projectId ?? ''),
    queryFn: jsonQuery(z.array(databaseConnectionSchema)),
    enabled: Boolean(projectId),
  });
  useLoadFailureToast(query.error, 'Failed to fetch database connections');
  return query;
}

/** useConnectionTablesQuery reads a connection's tables and columns (quietly: completion works without them). */
export function useConnectionTablesQuery(projectId: string | null, connectionId: number | null) {
  return useQuery({
    queryKey: sqlKeys.tables(projectId ?? '', connectionId ?? 0),
    queryFn: jsonQuery(connectionTablesSchema),
    enabled: Boolean(projectId && connectionId),
    retry: false,
    staleTime: 60_000,
  });
}

/** useQueryHistoryQuery lists a project's latest runs. */
export function useQueryHistoryQuery(projectId: string | null) {
  return useQuery({
    queryKey: sqlKeys.history(projectId ?? ''),
    queryFn: jsonQuery(z.array(queryHistoryEntrySchema)),
    enabled: Boolean(projectId),
  });
}

/** UploadInput is the upload dialog's answer. */
export interface UploadInput {
  projectId: string;
  file: File;
  description: string;
}

/** useUploadSqlFileMutation uploads a .sql file to a project. */
export function useUploadSqlFileMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ projectId, file, description }: UploadInput) => {
      const form = new FormData();
      form.set('projectId', projectId);
      form.set('description', description);
      form.set('file', file, file.name);
      return apiJson(storedFileSchema, 'POST', `/api/projects/${projectId}/files/upload`, form);
    },
    retry: false,
    onSuccess: (file) => {
      queryClient.invalidateQueries({ queryKey: sqlKeys.files(file.projectId) });
      showToast({ title: 'SQL File Uploaded', description: `${file.fileName} is ready to run.`, variant: 'success' });
    },
    onError: (error) =>
      showToast({ title: 'Upload Failed', description: errorMessage(error, FALLBACK), variant: 'destructive' }),
  });
}

function announce(result: SqlExecutionResult) {
  const { successfulStatements, totalStatements, failedStatements } = result.summary;
  showToast({
    title: result.dryRun ? 'SQL Validation Complete' : 'SQL Execution Complete',
    description: `${successfulStatements} of ${totalStatements} statements succeeded`,
    variant: failedStatements > 0 || successfulStatements < totalStatements ? 'destructive' : 'success',
  });
}

// After a run: its history entry, and the tables a DDL statement may have changed (the editor's completion).
function refreshAfterRun(queryClient: ReturnType<typeof useQueryClient>, projectId: string | null) {
  queryClient.invalidateQueries({ queryKey: sqlKeys.history(projectId ?? '') });
  const tablesOf = `/api/projects/${projectId}/database-connections/`;
  queryClient.invalidateQueries({
    predicate: (query) => {
      const [path] = query.queryKey;
      return typeof path === 'string' && path.startsWith(tablesOf) && path.endsWith('/tables');
    },
  });
}

const runTimeout = (timeout: number | undefined) => (timeout ?? SQL_LIMITS.timeoutDefault) + RUN_MARGIN_MS;

/** useExecuteSqlFileMutation runs a stored SQL file. */
export function useExecuteSqlFileMutation(projectId: string | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ExecuteSqlFileInput) =>
      apiJson(sqlExecutionResultSchema, 'POST', `/api/projects/${projectId}/files/execute-sql`, input, {
        timeoutMs: runTimeout(input.options?.timeout),
      }),
    // Running SQL twice is not harmless.
    retry: false,
    onSuccess: announce,
    onError: (error) =>
      showToast({ title: 'Execution Failed', description: errorMessage(error, FALLBACK), variant: 'destructive' }),
    onSettled: () => refreshAfterRun(queryClient, projectId),
  });
}

/** useExecuteDirectSqlMutation runs SQL typed in the editor. */
export function useExecuteDirectSqlMutation(projectId: string | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ExecuteDirectSqlInput) =>
      apiJson(sqlExecutionResultSchema, 'POST', `/api/projects/${projectId}/execute-direct-sql`, input, {
        timeoutMs: runTimeout(input.options?.timeout),
      }),
    retry: false,
    onSuccess: announce,
    onError: (error) =>
      showToast({ title: 'Execution Failed', description: errorMessage(error, FALLBACK), variant: 'destructive' }),
    onSettled: () => refreshAfterRun(queryClient, projectId),
  });
}

/** useCreateConnectionMutation registers a database connection in a project. */
export function useCreateConnectionMutation(projectId: string | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateConnectionInput) =>
      apiJson(databaseConnectionSchema, 'POST', `/api/projects/${projectId}/database-connections`, input),
    retry: false,
    onSuccess: (connection) => {
      queryClient.invalidateQueries({ queryKey: sqlKeys.connections(connection.projectId) });
      showToast({ title: 'Connection added', description: connection.name, variant: 'success' });
    },
    onError: (error) =>
      showToast({
        title: 'Failed to add connection',
        description: errorMessage(error, FALLBACK),
        variant: 'destructive',
      }),
  });
}
