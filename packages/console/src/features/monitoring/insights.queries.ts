import { tableResponseSchema } from '@basalt/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { refreshAfterSchemaChange } from '@/features/query-refresh';
import { apiJson, jsonQuery } from '@/lib/api';
import { errorMessage } from '@/lib/api-errors';
import { showToast } from '@/lib/toast';

// GET /api/insights, POST /api/insights/{id}/implemented and /apply: what the hourly job found about the account's
// tables, and "Apply" for what Basalt can do itself (an index, added through the table's schema change).

export const insightSchema = z.object({
  id: z.number(),
  tableId: z.number().nullable(),
  insightType: z.string(),
  title: z.string(),
  description: z.string(),
  impact: z.string(),
  suggestedAction: z.string(),
  canApply: z.boolean().optional(),
  implemented: z.boolean(),
  implementedAt: z.string().nullable(),
  createdAt: z.string(),
});
export type Insight = z.infer<typeof insightSchema>;

const LIST = ['/api/insights'] as const;

/** useInsightsQuery lists the account's performance insights, open ones first. */
export function useInsightsQuery() {
  return useQuery({ queryKey: LIST, queryFn: jsonQuery(z.array(insightSchema)) });
}

/** useMarkImplementedMutation marks one insight implemented. */
export function useMarkImplementedMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiJson(insightSchema, 'POST', `/api/insights/${id}/implemented`),
    retry: false,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: LIST }),
    onError: (error) =>
      showToast({
        title: 'Could not mark the insight',
        description: errorMessage(error, 'Something went wrong. Please try again.'),
        variant: 'destructive',
      }),
  });
}

const appliedSchema = z.object({ insight: insightSchema, table: tableResponseSchema });

/** useApplyInsightMutation does what an insight suggests (adds the index) and marks it implemented. */
export function useApplyInsightMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiJson(appliedSchema, 'POST', `/api/insights/${id}/apply`),
    retry: false,
    onSuccess: ({ table }) => {
      void queryClient.invalidateQueries({ queryKey: LIST });
      // The table's schema changed (an index), and history has the change.
      refreshAfterSchemaChange(queryClient, table, table);
      showToast({
        title: 'Index added',
        description: "The change is in the table's history, where it can be reverted.",
      });
    },
    onError: (error) =>
      showToast({
        title: 'Could not apply the insight',
        description: errorMessage(error, 'Something went wrong. Please try again.'),
        variant: 'destructive',
      }),
  });
}
