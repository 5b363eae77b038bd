import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { apiJson, jsonQuery } from '@/lib/api';
import { errorMessage } from '@/lib/api-errors';
import { showToast } from '@/lib/toast';

// GET /api/insights and POST /api/insights/{id}/implemented: what the hourly job found about the account's tables.

export const insightSchema = z.object({
  id: z.number(),
  tableId: z.number().nullable(),
  insightType: z.string(),
  title: z.string(),
  description: z.string(),
  impact: z.string(),
  suggestedAction: z.string(),
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
