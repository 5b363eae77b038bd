import { type TableAccess, type TableResponse, tableResponseSchema } from '@basalt/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { refreshAfterAccessChange } from '@/features/query-refresh';
import { apiJson } from '@/lib/api';
import { errorMessage } from '@/lib/api-errors';
import { showToast } from '@/lib/toast';

/** useUpdateTableAccessMutation saves a table's access rules (PATCH /api/tables/:id {access}). */
export function useUpdateTableAccessMutation(table: TableResponse) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (access: TableAccess) => apiJson(tableResponseSchema, 'PATCH', `/api/tables/${table.id}`, { access }),
    onSuccess: (saved) => {
      refreshAfterAccessChange(queryClient, saved);
      showToast({
        title: 'Access rules saved',
        description: `The users of your app now meet the new rules of ${saved.name}.`,
        variant: 'success',
      });
    },
    onError: (error) =>
      showToast({
        title: 'Failed to save access rules',
        description: errorMessage(error, 'Something went wrong. Please try again.'),
        variant: 'destructive',
      }),
  });
}
