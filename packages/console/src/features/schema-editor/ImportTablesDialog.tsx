import type { ImportCandidates } from '@basalt/shared';
import { Download } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Label } from '@/components/ui/label';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-errors';
import { useImportCandidatesQuery, useImportTablesMutation } from './schema-design.queries';

// "Import existing tables": the tables an import could draw, from the server. Linked tables the canvas does not
// show are always drawn; the person's own tables are offered with a box each (checked), as importing one links it
// to the project and so shares it with the project's members.

function Candidates({
  candidates,
  chosen,
  onChoose,
}: {
  candidates: ImportCandidates;
  chosen: ReadonlySet<number>;
  onChoose: (id: number, on: boolean) => void;
}) {
  if (candidates.linked.length === 0 && candidates.own.length === 0) {
    return (
      <p className="text-sm text-muted-foreground">
        Nothing to import: every table you have is already on the canvas. Create a table first, or create tables from
        this design.
      </p>
    );
  }
  return (
    <div className="grid max-h-80 gap-4 overflow-y-auto text-sm">
      {candidates.linked.length > 0 && (
        <section aria-label="Linked to this project" className="grid gap-1.5">
          <h3 className="font-medium">Linked to this project</h3>
          <ul className="grid gap-1 font-mono text-[13px]">
            {candidates.linked.map((table) => (
              <li key={table.id} className="break-all">
                {table.name}
              </li>
            ))}
          </ul>
        </section>
      )}
      {candidates.own.length > 0 && (
        <section aria-label="Your tables" className="grid gap-2">
          <h3 className="font-medium">Your tables</h3>
          <p className="text-muted-foreground">Importing links them to this project: its members reach them by role.</p>
          <ul className="grid gap-2">
            {candidates.own.map((table) => (
              <li key={table.id} className="flex items-center gap-2">
                <Checkbox
                  id={`import-table-${table.id}`}
                  checked={chosen.has(table.id)}
                  onCheckedChange={(on) => onChoose(table.id, on === true)}
                />
                <Label htmlFor={`import-table-${table.id}`} className="min-w-0 font-mono text-[13px] break-all">
                  {table.name}
                </Label>
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}

/** ImportTablesDialog is the "Import existing tables" button and its dialog. */
export function ImportTablesDialog({ projectId, disabled }: { projectId: string; disabled: boolean }) {
  const [open, setOpen] = useState(false);
  const candidates = useImportCandidatesQuery(projectId, open);
  const [chosen, setChosen] = useState<ReadonlySet<number>>(new Set());
  // Every own table starts chosen once the candidates are in.
  useEffect(() => {
    if (candidates.data) setChosen(new Set(candidates.data.own.map((table) => table.id)));
  }, [candidates.data]);
  const importing = useImportTablesMutation(projectId, () => setOpen(false));
  const count = (candidates.data?.linked.length ?? 0) + chosen.size;
  return (
    <>
      <Button size="sm" variant="outline" disabled={disabled} onClick={() => setOpen(true)}>
        <Download /> Import existing tables
      </Button>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Import existing tables</DialogTitle>
            <DialogDescription>Draw tables you already have on this project’s canvas.</DialogDescription>
          </DialogHeader>
          {candidates.isPending ? (
            <Spinner label="Loading your tables" />
          ) : candidates.isError ? (
            <p role="alert" className="text-sm text-destructive">
              {errorMessage(candidates.error)}
            </p>
          ) : (
            <Candidates
              candidates={candidates.data}
              chosen={chosen}
              onChoose={(id, on) =>
                setChosen((before) => {
                  const next = new Set(before);
                  if (on) next.add(id);
                  else next.delete(id);
                  return next;
                })
              }
            />
          )}
          <DialogFooter>
            <Button variant="outline" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button
              disabled={count === 0 || importing.isPending}
              onClick={() => importing.mutate({ tableIds: [...chosen] })}
            >
              {importing.isPending ? 'Importing...' : `Import ${count === 1 ? '1 table' : `${count} tables`}`}
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </>
  );
}
