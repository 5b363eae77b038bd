import type { EdgeFunction } from '@basalt/shared';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { FormDialog } from '@/components/ui/form-dialog';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { FunctionForm } from './FunctionForm';
import { FunctionLogsPanel } from './FunctionLogsPanel';
import { FunctionTestPanel } from './FunctionTestPanel';
import { FunctionVersionsPanel } from './FunctionVersionsPanel';
import { useCreateEdgeFunctionMutation, useUpdateEdgeFunctionMutation } from './functions.queries';

// Create and Edit, which adds the test panel, the invocation log with its chart, and
// the versions to roll back to.

const WIDE = 'sm:max-w-3xl';

/** CreateFunctionDialog creates a function from the default template. */
export function CreateFunctionDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const creation = useCreateEdgeFunctionMutation();
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      className={WIDE}
      title="Create Edge Function"
      description="A Deno module with the Web Request/Response API, as on Supabase. Deploy it to make it answer at its route."
    >
      <FunctionForm
        fn={null}
        pending={creation.isPending}
        submitLabel="Create Function"
        onCancel={() => onOpenChange(false)}
        onSubmit={(values) => creation.mutate(values, { onSuccess: () => onOpenChange(false) })}
      />
    </FormDialog>
  );
}

/** EditFunctionDialog edits a function and shows its test panel, log and versions. */
export function EditFunctionDialog({ fn, onClose }: { fn: EdgeFunction | null; onClose: () => void }) {
  const update = useUpdateEdgeFunctionMutation();
  return (
    <Dialog open={fn !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className={WIDE}>
        {fn && (
          <>
            <DialogHeader>
              <DialogTitle>Edit {fn.name}</DialogTitle>
              <DialogDescription>
                Saving keeps the code; Deploy makes it run.{' '}
                {fn.deployedVersion ? `Version ${fn.deployedVersion} runs now.` : 'Never deployed.'}
              </DialogDescription>
            </DialogHeader>
            <Tabs defaultValue="code" className="grid min-h-0 gap-4">
              <TabsList className="w-full sm:w-fit">
                <TabsTrigger value="code">Code</TabsTrigger>
                <TabsTrigger value="test">Test</TabsTrigger>
                <TabsTrigger value="logs">Logs</TabsTrigger>
                <TabsTrigger value="versions">Versions</TabsTrigger>
              </TabsList>
              <TabsContent value="code">
                <FunctionForm
                  key={`${fn.id}-${fn.updatedAt}`}
                  fn={fn}
                  pending={update.isPending}
                  submitLabel="Save"
                  onCancel={onClose}
                  onSubmit={(values) => update.mutate({ id: fn.id, patch: values }, { onSuccess: onClose })}
                />
              </TabsContent>
              <TabsContent value="test">
                <FunctionTestPanel fn={fn} />
              </TabsContent>
              <TabsContent value="logs">
                <FunctionLogsPanel fn={fn} />
              </TabsContent>
              <TabsContent value="versions">
                <FunctionVersionsPanel fn={fn} />
              </TabsContent>
            </Tabs>
          </>
        )}
      </DialogContent>
    </Dialog>
  );
}
