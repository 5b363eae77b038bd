import { type SqlFunction, type SqlFunctionInput, sqlFunctionSchema } from '@basalt/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { apiJson, apiRequest, jsonQuery } from '@/lib/api';
import { errorMessage } from '@/lib/api-errors';
import { showToast } from '@/lib/toast';
import { sqlFunctionKeys } from './sql-functions.keys';

// SQL functions: GET/POST /api/functions/sql, PUT/DELETE /api/functions/sql/{id} (docs/rpc.md; by id, since
// overloads share a name).

const FALLBACK = 'Something went wrong. Please try again.';

const failed = (title: string) => (error: unknown) =>
  showToast({ title, description: errorMessage(error, FALLBACK), variant: 'destructive' });

/** useSqlFunctionsQuery lists the account's SQL functions. */
export function useSqlFunctionsQuery() {
  return useQuery({ queryKey: sqlFunctionKeys.list, queryFn: jsonQuery(z.array(sqlFunctionSchema)) });
}

/** useSaveSqlFunctionMutation defines a function, or replaces the one of id `previous`. */
export function useSaveSqlFunctionMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ previous, input }: { previous: number | null; input: SqlFunctionInput }) =>
      previous === null
        ? apiJson(sqlFunctionSchema, 'POST', '/api/functions/sql', input)
        : apiJson(sqlFunctionSchema, 'PUT', `/api/functions/sql/${previous}`, input),
    retry: false,
    onSuccess: (fn) => {
      void queryClient.invalidateQueries({ queryKey: sqlFunctionKeys.list });
      showToast({ title: 'SQL function saved', description: `Call it with rpc('${fn.name}').`, variant: 'success' });
    },
    onError: failed('Failed to save SQL function'),
  });
}

/** useDeleteSqlFunctionMutation drops a function. */
export function useDeleteSqlFunctionMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (fn: SqlFunction) => {
      await apiRequest('DELETE', `/api/functions/sql/${fn.id}`);
    },
    onSuccess: (_data, fn) => {
      queryClient.setQueryData<SqlFunction[]>(sqlFunctionKeys.list, (list) => list?.filter((f) => f.id !== fn.id));
      showToast({ title: 'SQL function deleted', description: `${fn.name} was deleted.`, variant: 'success' });
    },
    onError: failed('Failed to delete SQL function'),
  });
}
