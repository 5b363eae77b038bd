import { importCandidatesSchema } from '@basalt/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { projectKeys } from '@/features/projects/projects.keys';
import { refreshAfterDesignApply } from '@/features/query-refresh';
import { apiJson, jsonQuery } from '@/lib/api';
import { errorMessage } from '@/lib/api-errors';
import { showToast } from '@/lib/toast';

// The schema editor's design-to-tables calls: plan what a project's layout would create or change, apply it, and
// import the project's linked tables onto the canvas.

const stepSchema = z.object({
  elementId: z.string(),
  name: z.string(),
  action: z.enum(['create', 'update', 'unchanged', 'refused']),
  tableId: z.number().nullable(),
  changes: z.array(z.string()),
  refusals: z.array(z.string()),
});
const planSchema = z.object({ steps: z.array(stepSchema), ready: z.boolean() });

/** DesignPlan is what each element of a layout would create or change, and whether all of it may be done. */
export type DesignPlan = z.infer<typeof planSchema>;

const failure = (title: string) => (error: unknown) =>
  showToast({ title, description: errorMessage(error), variant: 'destructive' });

/** usePlanDesignMutation asks the server what "Create tables from this design" would do. */
export function usePlanDesignMutation(projectId: string) {
  return useMutation({
    mutationFn: () => apiJson(planSchema, 'POST', `/api/projects/${projectId}/schema/plan`),
    onError: failure('Could not plan the tables'),
  });
}

/** useApplyDesignMutation creates and changes the tables of a design; every list that shows them is refreshed. */
export function useApplyDesignMutation(projectId: string, onDone: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiJson(planSchema, 'POST', `/api/projects/${projectId}/schema/apply`),
    onSuccess: (done) => {
      const changed = done.steps.filter((s) => s.action === 'update');
      refreshAfterDesignApply(
        queryClient,
        projectId,
        changed.flatMap((s) => (s.tableId === null ? [] : [s.tableId])),
      );
      const created = done.steps.filter((s) => s.action === 'create').length;
      showToast({
        title: 'Tables created',
        description: `${created} created, ${changed.length} changed.`,
        variant: 'success',
      });
      onDone();
    },
    onError: failure('Failed to create tables'),
  });
}

/**
 * useImportTablesMutation links the caller's chosen tables to the project and puts every linked table that is not
 * drawn yet onto its canvas; the project's tables and the candidates are read again.
 */
export function useImportTablesMutation(projectId: string, onDone: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { tableIds: number[] }) =>
      apiJson(
        z.object({ imported: z.number() }).passthrough(),
        'POST',
        `/api/projects/${projectId}/schema/import`,
        input,
      ),
    onSuccess: ({ imported }) => {
      void queryClient.invalidateQueries({ queryKey: projectKeys.tables(projectId) });
      void queryClient.invalidateQueries({ queryKey: [`/api/projects/${projectId}/schema/import`] });
      showToast({
        title: imported === 0 ? 'Nothing to import' : 'Tables imported',
        description: imported === 0 ? 'Every table is already on the canvas.' : `${imported} added to the canvas.`,
        variant: imported === 0 ? 'default' : 'success',
      });
      onDone();
    },
    onError: failure('Failed to import tables'),
  });
}

/** useImportCandidatesQuery lists the tables that could join the project's canvas, read fresh while the dialog is open. */
export function useImportCandidatesQuery(projectId: string, open: boolean) {
  return useQuery({
    queryKey: [`/api/projects/${projectId}/schema/import`],
    queryFn: jsonQuery(importCandidatesSchema),
    enabled: open,
    staleTime: 0,
  });
}
