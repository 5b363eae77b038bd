import {
  type CreateEdgeFunctionInput,
  type EdgeFunction,
  edgeFunctionSchema,
  edgeFunctionVersionSchema,
  functionInvocationSchema,
  functionStatsSchema,
  functionTestResultSchema,
  type TestEdgeFunctionInput,
  type UpdateEdgeFunctionInput,
} from '@basalt/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { z } from 'zod';
import { refreshAfterFunctionWrite } from '@/features/query-refresh';
import { apiJson, apiRequest, jsonQuery } from '@/lib/api';
import { errorMessage } from '@/lib/api-errors';
import { showToast } from '@/lib/toast';
import { functionKeys } from './functions.keys';

// Edge functions: GET/POST /api/edge-functions,
// PATCH/DELETE /api/edge-functions/{id}, POST …/{id}/deploy; beyond the spec: versions, rollback, the invocation
// log, hourly stats and the test panel.

const FALLBACK = 'Something went wrong. Please try again.';

const failed = (title: string) => (error: unknown) =>
  showToast({ title, description: errorMessage(error, FALLBACK), variant: 'destructive' });

/** useEdgeFunctionsQuery lists the account's functions; a failure shows "Failed to fetch edge functions". */
export function useEdgeFunctionsQuery() {
  const query = useQuery({ queryKey: functionKeys.list, queryFn: jsonQuery(z.array(edgeFunctionSchema)) });
  const { error } = query;
  useEffect(() => {
    if (error) failed('Failed to fetch edge functions')(error);
  }, [error]);
  return query;
}

/** useCreateEdgeFunctionMutation creates a function (not deployed yet). */
export function useCreateEdgeFunctionMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateEdgeFunctionInput) => apiJson(edgeFunctionSchema, 'POST', '/api/edge-functions', input),
    retry: false,
    onSuccess: (fn) => {
      refreshAfterFunctionWrite(queryClient);
      showToast({ title: 'Edge function created', description: `${fn.name} is ready to deploy.`, variant: 'success' });
    },
    onError: failed('Failed to create edge function'),
  });
}

/** useUpdateEdgeFunctionMutation saves a function's fields; what runs changes on deploy. */
export function useUpdateEdgeFunctionMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, patch }: { id: number; patch: UpdateEdgeFunctionInput }) =>
      apiJson(edgeFunctionSchema, 'PATCH', `/api/edge-functions/${id}`, patch),
    onSuccess: (fn) => {
      refreshAfterFunctionWrite(queryClient, fn.id);
      showToast({ title: 'Edge function updated', description: `${fn.name} was saved.`, variant: 'success' });
    },
    onError: failed('Failed to update edge function'),
  });
}

/** useDeleteEdgeFunctionMutation deletes a function, its versions and its log. */
export function useDeleteEdgeFunctionMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (fn: EdgeFunction) => {
      await apiRequest('DELETE', `/api/edge-functions/${fn.id}`);
    },
    onSuccess: (_data, fn) => {
      queryClient.setQueryData<EdgeFunction[]>(functionKeys.list, (list) => list?.filter((f) => f.id !== fn.id));
      refreshAfterFunctionWrite(queryClient);
      showToast({ title: 'Edge function deleted', description: `${fn.name} was deleted.`, variant: 'success' });
    },
    onError: failed('Failed to delete edge function'),
  });
}

/** useDeployEdgeFunctionMutation bundles and runs a function's current code. */
export function useDeployEdgeFunctionMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (fn: Pick<EdgeFunction, 'id'>) =>
      apiJson(edgeFunctionSchema, 'POST', `/api/edge-functions/${fn.id}/deploy`),
    retry: false,
    onSuccess: (fn) => {
      refreshAfterFunctionWrite(queryClient, fn.id);
      showToast({
        title: 'Edge function deployed',
        description: `${fn.name} version ${fn.deployedVersion} answers at ${fn.route}.`,
        variant: 'success',
      });
    },
    onError: failed('Failed to deploy edge function'),
  });
}

/** useRollbackEdgeFunctionMutation runs a kept version again. */
export function useRollbackEdgeFunctionMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, version }: { id: number; version: number }) =>
      apiJson(edgeFunctionSchema, 'POST', `/api/edge-functions/${id}/rollback`, { version }),
    retry: false,
    onSuccess: (fn) => {
      refreshAfterFunctionWrite(queryClient, fn.id);
      showToast({
        title: 'Edge function deployed',
        description: `${fn.name} runs version ${fn.deployedVersion} again.`,
        variant: 'success',
      });
    },
    onError: failed('Failed to deploy edge function'),
  });
}

/** useFunctionVersionsQuery lists a function's kept versions. */
export function useFunctionVersionsQuery(id: number) {
  return useQuery({ queryKey: functionKeys.versions(id), queryFn: jsonQuery(z.array(edgeFunctionVersionSchema)) });
}

/** useFunctionInvocationsQuery lists a function's newest invocations, refreshed every 5 s while shown. */
export function useFunctionInvocationsQuery(id: number) {
  return useQuery({
    queryKey: functionKeys.invocations(id),
    queryFn: jsonQuery(z.array(functionInvocationSchema)),
    refetchInterval: 5000,
  });
}

/** useFunctionStatsQuery reads a function's invocations and errors per hour over the last day. */
export function useFunctionStatsQuery(id: number) {
  return useQuery({ queryKey: functionKeys.stats(id), queryFn: jsonQuery(functionStatsSchema), refetchInterval: 5000 });
}

/** useTestEdgeFunctionMutation sends one request to the deployed version and returns what came back. */
export function useTestEdgeFunctionMutation(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: TestEdgeFunctionInput) =>
      apiJson(functionTestResultSchema, 'POST', `/api/edge-functions/${id}/test`, input),
    retry: false,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: functionKeys.invocations(id) });
      void queryClient.invalidateQueries({ queryKey: functionKeys.stats(id) });
    },
  });
}
