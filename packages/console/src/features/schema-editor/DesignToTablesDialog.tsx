import { Table2 } from 'lucide-react';
import { useState } from 'react';
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
import { ImportTablesDialog } from './ImportTablesDialog';
import { type DesignPlan, useApplyDesignMutation, usePlanDesignMutation } from './schema-design.queries';

// "Create tables from this design" and "Import existing tables": a preview of what
// each element of the layout would create or change, with the reasons a step is refused, then one click to do it.

const ACTION_LABEL = { create: 'New table', update: 'Changes', unchanged: 'Up to date', refused: 'Refused' } as const;

function PlanList({ plan }: { plan: DesignPlan }) {
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
  const plan = usePlanDesignMutation(projectId);
  const apply = useApplyDesignMutation(projectId, () => setOpen(false));
  return (
    <>
      <ImportTablesDialog projectId={projectId} disabled={disabled} />
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
