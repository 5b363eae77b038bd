import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Download, Table2 } from 'lucide-react';
import { useState } from 'react';
import { z } from 'zod';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Spinner } from '@/components/ui/spinner';
import { projectKeys } from '@/features/projects/projects.keys';
import { apiJson } from '@/lib/api';
import { errorMessage } from '@/lib/api-errors';
import { showToast } from '@/lib/toast';

// "Create tables from this design" and "Import existing tables": a preview of what
// each element of the layout would create or change, with the reasons a step is refused, then one click to do it.

const stepSchema = z.object({
  elementId: z.string(),
  name: z.string(),
  action: z.enum(['create', 'update', 'unchanged', 'refused']),
  tableId: z.number().nullable(),
  changes: z.array(z.string()),
  refusals: z.array(z.string()),
});
const planSchema = z.object({ steps: z.array(stepSchema), ready: z.boolean() });
type Plan = z.infer<typeof planSchema>;

const ACTION_LABEL = { create: 'New table', update: 'Changes', unchanged: 'Up to date', refused: 'Refused' } as const;

function PlanList({ plan }: { plan: Plan }) {
  if (plan.steps.length === 0) return <p className="text-sm text-muted-foreground">The design has no tables yet.</p>;
  return (
    <ul className="grid max-h-80 gap-3 overflow-y-auto">
      {plan.steps.map((step) => (
        <li key={step.elementId} className="rounded-md border p-3 text-sm">
          <div className="flex items-center justify-between gap-2">
            <span className="font-medium">{step.name}</span>
            <Badge
              variant={step.action === 'refused' ? 'destructive' : step.action === 'unchanged' ? 'outline' : 'default'}
            >
              {ACTION_LABEL[step.action]}
            </Badge>
          </div>
          {step.changes.length > 0 && (
            <ul className="mt-1 list-disc pl-5 text-muted-foreground">
              {step.changes.map((change) => (
                <li key={change}>{change}</li>
              ))}
            </ul>
          )}
          {step.refusals.map((refusal) => (
            <p key={refusal} className="mt-1 text-destructive">
              {refusal}
            </p>
          ))}
        </li>
      ))}
    </ul>
  );
}

/** DesignToTablesDialog offers "Import existing tables" and "Create tables from this design". */
export function DesignToTablesDialog({ projectId, disabled }: { projectId: string; disabled: boolean }) {
  const [open, setOpen] = useState(false);
  const queryClient = useQueryClient();
  const plan = useMutation({
    mutationFn: () => apiJson(planSchema, 'POST', `/api/projects/${projectId}/schema/plan`),
    onError: (error) =>
      showToast({ title: 'Could not plan the tables', description: errorMessage(error), variant: 'destructive' }),
  });
  const apply = useMutation({
    mutationFn: () => apiJson(planSchema, 'POST', `/api/projects/${projectId}/schema/apply`),
    onSuccess: (done) => {
      void queryClient.invalidateQueries({ queryKey: ['/api/tables'] });
      void queryClient.invalidateQueries({ queryKey: projectKeys.tables(projectId) });
      const created = done.steps.filter((s) => s.action === 'create').length;
      const changed = done.steps.filter((s) => s.action === 'update').length;
      showToast({
        title: 'Tables created',
        description: `${created} created, ${changed} changed.`,
        variant: 'success',
      });
      setOpen(false);
    },
    onError: (error) =>
      showToast({ title: 'Failed to create tables', description: errorMessage(error), variant: 'destructive' }),
  });
  const importing = useMutation({
    mutationFn: () =>
      apiJson(z.object({ imported: z.number() }).passthrough(), 'POST', `/api/projects/${projectId}/schema/import`),
    onSuccess: ({ imported }) =>
      showToast({
        title: imported === 0 ? 'Nothing to import' : 'Tables imported',
        description:
          imported === 0 ? 'Every linked table is already on the canvas.' : `${imported} added to the canvas.`,
      }),
    onError: (error) =>
      showToast({ title: 'Failed to import tables', description: errorMessage(error), variant: 'destructive' }),
  });
  return (
    <>
      <Button size="sm" variant="outline" disabled={disabled || importing.isPending} onClick={() => importing.mutate()}>
        <Download /> Import existing tables
      </Button>
      <Button
        size="sm"
        variant="outline"
        disabled={disabled}
        onClick={() => {
          setOpen(true);
          plan.mutate();
        }}
      >
        <Table2 /> Create tables from this design
      </Button>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Create tables from this design</DialogTitle>
            <DialogDescription>
              New tables are yours and linked to this project; existing ones gain columns, and none are dropped.
            </DialogDescription>
          </DialogHeader>
          {plan.isPending ? <Spinner label="Planning" /> : plan.data ? <PlanList plan={plan.data} /> : null}
          <DialogFooter>
            <Button variant="outline" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button disabled={!plan.data?.ready || apply.isPending} onClick={() => apply.mutate()}>
              {apply.isPending ? 'Creating...' : 'Create tables'}
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </>
  );
}
